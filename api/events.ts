/**
 * One in-process fan-out of server events to subscribers (api/realtime.ts forwards them to socket.io
 * rooms): comment changes, custom-tree changes, user notices. Pushes are best effort — the change they
 * report is already stored and clients read it again on their next refresh — so a failing subscriber does
 * not stop the others.
 */
export class Fanout<T> {
  private readonly listeners = new Set<(e: T) => void>();

  /** Subscribes; returns the unsubscribe. */
  on(fn: (e: T) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Sends `e` to every subscriber; one that throws does not stop the others. */
  send(e: T): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // Best effort (see the class comment).
      }
    }
  }
}
