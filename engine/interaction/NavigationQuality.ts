/**
 * Interactive detail while the camera is navigated (orbit frame time at scale; what commercial
 * viewers call dynamic or interactive quality): tracks whether a navigation is in progress — a pointer or
 * touch drag that moves the camera (orbit, pan, pinch) from its start to its end, and the pulses of wheel
 * zoom and walk keys until NAV_IDLE_MS after the last one — and reports each change through `onChange`,
 * so the engine draws interactive frames meanwhile and one full-quality frame as soon as it ends.
 * Animated projection views are not tracked here: the engine asks OrbitCamera.animating per frame.
 * Timers are setTimeout / clearTimeout (fake timers in tests). Works in Node (no DOM).
 */

/** Interactive detail lasts this long (ms) after the last wheel event or walk key (viewer.md §9: ~250 ms). */
export const NAV_IDLE_MS = 250;

/** A held navigation (begin … end) or a pulse that lasts NAV_IDLE_MS. */
export type NavigationKind = 'drag' | 'wheel' | 'keys';

/** The navigation state machine. dispose() cancels the pending timer. */
export class NavigationQuality {
  private held = new Set<NavigationKind>();
  private pulseUntil = new Map<NavigationKind, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The pulse end the timer was set for (a timer firing early by the clock still ends those pulses). */
  private armedDue = 0;
  private wasActive = false;

  /**
   * @param onChange called with true when a navigation starts and false when the last one ends.
   * @param now clock in ms (the engine's).
   * @param idleMs how long a pulse (wheel, walk key) keeps the navigation on, ms.
   */
  constructor(
    private readonly onChange: (active: boolean) => void,
    private readonly now: () => number,
    private readonly idleMs: number = NAV_IDLE_MS,
  ) {}

  /** True while any navigation is in progress. */
  get active(): boolean {
    return this.held.size > 0 || this.pulseUntil.size > 0;
  }

  /** A held navigation starts (e.g. a drag moved past the click threshold). */
  begin(kind: NavigationKind): void {
    this.held.add(kind);
    this.report();
  }

  /** A held navigation ends (pointer released or cancelled). */
  end(kind: NavigationKind): void {
    this.held.delete(kind);
    this.report();
  }

  /** One wheel event or walk step: the navigation lasts until `idleMs` after the last pulse. */
  pulse(kind: NavigationKind): void {
    this.pulseUntil.set(kind, this.now() + this.idleMs);
    this.arm();
    this.report();
  }

  /** Ends everything at once (model cleared, walk mode toggled) without waiting for the timers. */
  reset(): void {
    this.held.clear();
    this.pulseUntil.clear();
    this.clearTimer();
    this.report();
  }

  dispose(): void {
    this.held.clear();
    this.pulseUntil.clear();
    this.clearTimer();
    this.wasActive = false;
  }

  private arm(): void {
    this.clearTimer();
    if (this.pulseUntil.size === 0) return;
    const due = Math.min(...this.pulseUntil.values());
    this.armedDue = due;
    this.timer = setTimeout(() => this.expire(), Math.max(0, due - this.now()));
  }

  private expire(): void {
    this.timer = null;
    const t = Math.max(this.now(), this.armedDue);
    for (const [kind, until] of this.pulseUntil) if (until <= t) this.pulseUntil.delete(kind);
    this.arm();
    this.report();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private report(): void {
    const a = this.active;
    if (a === this.wasActive) return;
    this.wasActive = a;
    this.onChange(a);
  }
}
