/**
 * On-demand rendering of the engine (ARCHITECTURE.md "engine/"): every change marks the frame dirty and
 * schedules one animation frame (requestAnimationFrame where the worker has it, else a 16 ms timer);
 * nothing is drawn while idle. Keeps the statistics of viewer.md's Ctrl+Alt+R panel (last frame's CPU
 * time, frames in the last second, draw calls, triangles).
 *
 * The owner supplies the per-frame work as hooks: `tick(t)` advances animations (true = keep going),
 * `draw()` renders (called only when dirty and a renderer exists), `after(t)` emits throttled events.
 */

/** What the frame loop needs of a renderer's statistics (THREE.WebGLRenderer.info). */
export interface RenderInfoLike {
  render: { calls: number; triangles: number };
}

/** Hooks of one frame. */
export interface FrameHooks {
  /** Advances animations; returns true when another frame is needed (e.g. an orbit animation runs). */
  tick(t: number): boolean;
  /** True when drawing is possible (a renderer exists). */
  canDraw(): boolean;
  /** Draws the scene; returns the renderer's info when available. */
  draw(): RenderInfoLike | undefined;
  /** Runs after drawing (first-frame and camera events); returns true when another frame is needed. */
  after(t: number): boolean;
}

/** Frame statistics (ms, counts). */
export interface FrameStats {
  frameTimeMs: number;
  drawCalls: number;
  triangles: number;
  /** Times (ms) of the last frames, for fps. */
  frameTimes: number[];
}

/** The scheduler. dispose() cancels a pending frame; afterwards nothing is scheduled. */
export class FrameLoop {
  readonly stats: FrameStats = { frameTimeMs: 0, drawCalls: 0, triangles: 0, frameTimes: [] };
  private dirty = false;
  private scheduled = false;
  private handle: { cancel(): void } | null = null;
  private disposed = false;

  constructor(
    private readonly hooks: FrameHooks,
    private readonly now: () => number,
  ) {}

  /** Marks the frame dirty and schedules one frame. */
  invalidate(): void {
    this.dirty = true;
    this.schedule();
  }

  /** Schedules a frame without marking it dirty (animations, throttled events). */
  schedule(): void {
    if (this.scheduled || this.disposed) return;
    this.scheduled = true;
    const g = globalThis as {
      requestAnimationFrame?: (cb: (t: number) => void) => number;
      cancelAnimationFrame?: (h: number) => void;
    };
    if (typeof g.requestAnimationFrame === 'function' && typeof g.cancelAnimationFrame === 'function') {
      const h = g.requestAnimationFrame(() => this.frame());
      this.handle = { cancel: () => g.cancelAnimationFrame!(h) };
    } else {
      const h = setTimeout(() => this.frame(), 16);
      this.handle = { cancel: () => clearTimeout(h) };
    }
  }

  /** Frames drawn within the last second before `now`. */
  fps(now: number): number {
    return this.stats.frameTimes.filter((x) => now - x <= 1000).length;
  }

  /** Runs one frame now (the scheduled callback; tests and benches may call it directly). */
  frame(): void {
    this.scheduled = false;
    this.handle = null;
    if (this.disposed) return;
    const t = this.now();
    let again = this.hooks.tick(t);
    if (again) this.dirty = true;
    if (this.dirty && this.hooks.canDraw()) {
      this.dirty = false;
      const t0 = this.now();
      const info = this.hooks.draw();
      const t1 = this.now();
      const s = this.stats;
      s.frameTimeMs = t1 - t0;
      s.frameTimes.push(t1);
      if (s.frameTimes.length > 240) s.frameTimes.splice(0, s.frameTimes.length - 240);
      if (info) {
        s.drawCalls = info.render.calls;
        s.triangles = info.render.triangles;
      }
    }
    again = this.hooks.after(t) || again;
    if (again || (this.dirty && this.hooks.canDraw())) this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    this.handle?.cancel();
    this.handle = null;
  }
}
