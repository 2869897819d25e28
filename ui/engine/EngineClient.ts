/**
 * The UI's one handle on the render engine (ARCHITECTURE.md "ui/"): starts workers/render.worker.ts as a
 * module worker, transfers the canvas (transferControlToOffscreen), wraps the EngineApi with Comlink,
 * forwards pointer, wheel and double-click input (PointerInput / WheelInput of engine/EngineApi.ts) and
 * canvas resizes, and terminates the worker on dispose (house rule 7: whoever creates disposes).
 */
import * as Comlink from 'comlink';
import type { EngineApi, EngineListener, PointerInput } from '../../engine/EngineApi';
import { eventEpochTime } from '../../engine/interaction/clock';

/** Remote engine facade: every method returns a promise. */
export type RemoteEngine = Comlink.Remote<EngineApi>;

export class EngineClient {
  /** The engine facade (calls cross the worker boundary). */
  readonly api: RemoteEngine;
  private readonly worker: Worker;
  private readonly disposers: Array<() => void> = [];
  private disposed = false;

  private constructor(private readonly canvas: HTMLCanvasElement) {
    this.worker = new Worker(new URL('../../workers/render.worker.ts', import.meta.url), {
      type: 'module',
      name: 'keelson-render',
    });
    this.api = Comlink.wrap<EngineApi>(this.worker);
  }

  /**
   * Starts the engine on `canvas` and subscribes `listener` to its events.
   * @throws Error when the worker cannot start or the engine's init fails (e.g. no WebGL2).
   */
  static async create(canvas: HTMLCanvasElement, listener: EngineListener): Promise<EngineClient> {
    const client = new EngineClient(canvas);
    try {
      const rect = canvas.getBoundingClientRect();
      const offscreen = canvas.transferControlToOffscreen();
      const workerFailed = new Promise<never>((_, reject) => {
        client.worker.addEventListener(
          'error',
          (e) => reject(new Error(`Render worker failed: ${e.message || 'could not start'}`)),
          { once: true },
        );
      });
      await Promise.race([
        client.api.init(
          Comlink.transfer(
            {
              canvas: offscreen,
              width: Math.max(1, rect.width),
              height: Math.max(1, rect.height),
              pixelRatio: window.devicePixelRatio || 1,
            },
            [offscreen],
          ),
        ),
        workerFailed,
      ]);
      await client.api.subscribe(Comlink.proxy(listener));
      client.attachInput();
      client.observeResize();
      return client;
    } catch (e) {
      client.dispose();
      throw e;
    }
  }

  private listen<K extends keyof HTMLElementEventMap>(
    type: K,
    fn: (e: HTMLElementEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ): void {
    this.canvas.addEventListener(type, fn as EventListener, options);
    this.disposers.push(() => this.canvas.removeEventListener(type, fn as EventListener, options));
  }

  private pointerInput(kind: PointerInput['kind'], e: PointerEvent): PointerInput {
    const r = this.canvas.getBoundingClientRect();
    return {
      kind,
      x: e.clientX - r.left,
      y: e.clientY - r.top,
      button: e.button,
      buttons: e.buttons,
      ctrlKey: e.ctrlKey,
      shiftKey: e.shiftKey,
      altKey: e.altKey,
      metaKey: e.metaKey,
      pointerId: e.pointerId,
      pointerType: (e.pointerType as PointerInput['pointerType']) || 'mouse',
      time: eventEpochTime(e.timeStamp),
    };
  }

  private attachInput(): void {
    const send = (input: PointerInput) => {
      if (!this.disposed) void this.api.pointer(input).catch(() => {});
    };
    this.listen('pointerdown', (e) => {
      this.canvas.setPointerCapture?.(e.pointerId);
      send(this.pointerInput('down', e));
    });
    this.listen('pointermove', (e) => send(this.pointerInput('move', e)));
    this.listen('pointerup', (e) => {
      if (this.canvas.hasPointerCapture?.(e.pointerId)) this.canvas.releasePointerCapture(e.pointerId);
      send(this.pointerInput('up', e));
    });
    this.listen('pointerleave', (e) => send(this.pointerInput('leave', e)));
    this.listen('pointercancel', (e) => send(this.pointerInput('cancel', e)));
    this.listen(
      'wheel',
      (e) => {
        e.preventDefault();
        const r = this.canvas.getBoundingClientRect();
        // Normalise line and page deltas to pixels so the engine sees one notch ≈ 100 px.
        const scale = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? r.height : 1;
        if (!this.disposed)
          void this.api
            .wheel({
              x: e.clientX - r.left,
              y: e.clientY - r.top,
              deltaX: e.deltaX * scale,
              deltaY: e.deltaY * scale,
              ctrlKey: e.ctrlKey,
              shiftKey: e.shiftKey,
            })
            .catch(() => {});
      },
      { passive: false },
    );
    this.listen('dblclick', (e) => {
      const r = this.canvas.getBoundingClientRect();
      if (!this.disposed) void this.api.doubleClick(e.clientX - r.left, e.clientY - r.top).catch(() => {});
    });
    // The engine owns the right button (context menu of viewer.md §2); the browser's menu stays closed.
    this.listen('contextmenu', (e) => e.preventDefault());
  }

  private observeResize(): void {
    const ro = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (!box || this.disposed || box.width < 1 || box.height < 1) return;
      void this.api.resize(box.width, box.height, window.devicePixelRatio || 1).catch(() => {});
    });
    ro.observe(this.canvas);
    this.disposers.push(() => ro.disconnect());
  }

  /** Removes listeners, asks the engine to free its resources and terminates the worker. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.disposers.splice(0)) d();
    const worker = this.worker;
    // Give the engine a moment to free GPU memory, then end the worker regardless.
    const end = () => {
      try {
        this.api[Comlink.releaseProxy]();
      } catch {
        /* already released */
      }
      worker.terminate();
    };
    Promise.race([this.api.dispose(), new Promise((r) => setTimeout(r, 200))]).then(end, end);
  }
}
