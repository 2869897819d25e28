/**
 * Which viewers are using which project's cached revision data (viewer.md §7 "Instance lifecycle"), so that
 * one viewer closing — POST .../maintenance/shutdown — frees the server's cached data only when no other
 * viewer of the project is still working with it. A viewer holds a project from its last successful instance
 * call (identified by the calls' `viewerId`) until it shuts down or has been idle longer than the viewer
 * time-out (WEB_VIEWER_TIMEOUT_MIN, after which the viewer closes itself). Bounded: at most `max` holders,
 * the least recently seen dropped first, so clients inventing viewer ids cannot grow it.
 */
export class ViewerHolds {
  /** `project \n viewerId` → last seen (ms); Map order is least recently seen first. */
  private readonly seen = new Map<string, number>();

  /**
   * @param idleMs a holder not seen for longer no longer counts (ms).
   * @param max at most this many holders are remembered.
   * @param now the clock (ms), replaceable in tests.
   */
  constructor(
    private readonly idleMs: number,
    private readonly max = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records that `viewerId` used `project` (normalised name) just now. */
  touch(project: string, viewerId: string): void {
    const key = `${project}\n${viewerId}`;
    this.seen.delete(key);
    this.seen.set(key, this.now());
    while (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value as string);
  }

  /**
   * Ends `viewerId`'s hold on `project` (none: an anonymous viewer, nothing to end).
   * @returns true when no other viewer seen within the idle time still holds the project, i.e. its
   *   cached data may be dropped.
   */
  release(project: string, viewerId: string | undefined): boolean {
    if (viewerId !== undefined) this.seen.delete(`${project}\n${viewerId}`);
    this.expire();
    const prefix = `${project}\n`;
    for (const key of this.seen.keys()) if (key.startsWith(prefix)) return false;
    return true;
  }

  /** How many viewers hold `project` now. */
  holders(project: string): number {
    this.expire();
    const prefix = `${project}\n`;
    let n = 0;
    for (const key of this.seen.keys()) if (key.startsWith(prefix)) n++;
    return n;
  }

  private expire(): void {
    const limit = this.now() - this.idleMs;
    for (const [key, t] of this.seen) {
      if (t >= limit) break;
      this.seen.delete(key);
    }
  }
}
