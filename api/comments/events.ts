/**
 * Fan-out of comment changes (viewer.md §2 "A thread scrolls into view when activated or updated"): the
 * routes send a CommentEvent after each stored change; api/realtime.ts forwards it to the project's room.
 */
import type { CommentEvent } from '../contract/comments';

/** Subscribers of comment changes. */
export class CommentEvents {
  private readonly listeners = new Set<(e: CommentEvent) => void>();

  /** Subscribes; returns the unsubscribe. */
  on(fn: (e: CommentEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Sends to every subscriber; a failing one does not stop the others (the change is already stored). */
  send(e: CommentEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // Pushes are best effort: a panel that missed one still gets the change on Refresh.
      }
    }
  }
}
