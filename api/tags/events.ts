/**
 * Fan-out of tag changes (viewer.md §7 "Tags", "Tagging": custom trees are shared, so other users viewing
 * the project see a change): the tag routes send a TagsEvent after each stored change; api/realtime.ts
 * forwards it to the project's room.
 */
import type { TagsEvent } from '../contract/tags';

/** Subscribers of tag changes. */
export class TagEvents {
  private readonly listeners = new Set<(e: TagsEvent) => void>();

  /** Subscribes; returns the unsubscribe. */
  on(fn: (e: TagsEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Sends to every subscriber; a failing one does not stop the others (the change is already stored). */
  send(e: TagsEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // Pushes are best effort: a viewer that missed one still reads the trees when it opens next.
      }
    }
  }
}
