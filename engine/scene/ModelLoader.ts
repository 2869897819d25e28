/**
 * Loading a model into the engine (viewer.md §4 "Loading"; ARCHITECTURE.md "The `.sc` package"): streams
 * the package (scene/streamScenePackage), creates the ModelScene on the header, adds chunks as they
 * arrive, and builds the picking BVHs chunk by chunk in idle slices so the worker never blocks on all of
 * them at once, then (once the package is in) the box-selection hierarchy of object bounds in slices of
 * BOX_TREE_SLICE_MS and a few warm-up boxes (interaction/boxWarmUp.ts), one per slice. While the camera is
 * navigated the idle work waits (a chunk's BVH or a warm-up box can take longer than a frame, and would
 * land between the frames of a drag). A new load cancels the previous one.
 */
import type { LoadProgress } from '../EngineApi';
import type { ScreenProjection } from '../interaction/boxSelect';
import type { SceneHeader } from '../package/types';
import type { ModelScene } from './ModelScene';
import { streamScenePackage } from './streamScenePackage';

/** What the loader calls back. */
export interface ModelLoadHooks {
  /** The header arrived: create (and show) the model. */
  header(header: SceneHeader): ModelScene;
  /** A chunk was added to the model. */
  chunk(model: ModelScene): void;
  progress(progress: LoadProgress): void;
}

/** Time (ms) one idle slice may spend on the box-selection hierarchy (a 500k-part ship needs a few slices). */
export const BOX_TREE_SLICE_MS = 8;

/** How long (ms) idle work waits before looking again while the camera is navigated. */
export const IDLE_BUSY_WAIT_MS = 50;

/** One load at a time, plus idle BVH building. */
export class ModelLoader {
  private abort: AbortController | null = null;
  private bvhTimer: ReturnType<typeof setTimeout> | null = null;
  private current: ModelScene | null = null;
  /** The model whose package has fully arrived (its box-selection hierarchy may be built). */
  private streamed: ModelScene | null = null;
  private disposed = false;

  /**
   * `boxView`: the current view for box selection (null in walk mode), in which the idle builder warms the
   * box kernel after the hierarchy (ModelScene.warmBoxSelect); without it there is no warm-up. `navigating`:
   * true while the camera moves, when idle work waits IDLE_BUSY_WAIT_MS at a time.
   */
  constructor(
    private readonly deps: {
      fetchFn?: typeof fetch;
      now: () => number;
      boxView?: () => ScreenProjection | null;
      navigating?: () => boolean;
    },
  ) {}

  /**
   * Streams `url` with `headers`. Resolves with the loaded model. @throws Error 'Loading model cancelled'
   * when a newer load or cancel() interrupts it; the stream's or reader's Error otherwise.
   */
  async load(url: string, headers: Record<string, string>, hooks: ModelLoadHooks): Promise<ModelScene> {
    this.cancel();
    const abort = new AbortController();
    this.abort = abort;
    let model: ModelScene | null = null;
    try {
      await streamScenePackage(url, headers, {
        signal: abort.signal,
        fetchFn: this.deps.fetchFn,
        now: this.deps.now,
        onHeader: (header) => {
          model = hooks.header(header);
          this.current = model;
        },
        onChunk: (chunk) => {
          if (!model) throw new Error('Scene package chunk before header');
          model.addChunk(chunk);
          hooks.chunk(model);
          this.scheduleBvh();
        },
        onProgress: hooks.progress,
      });
      if (abort.signal.aborted) throw new Error('Loading model cancelled');
      if (!model) throw new Error('Loading model failed: no header');
      this.streamed = model;
      this.scheduleBvh();
      return model;
    } catch (e) {
      if (abort.signal.aborted) throw new Error('Loading model cancelled');
      throw e instanceof Error ? e : new Error(String(e));
    } finally {
      if (this.abort === abort) this.abort = null;
    }
  }

  /** Cancels a running load (its promise rejects with 'Loading model cancelled'). */
  cancel(): void {
    this.abort?.abort();
    this.abort = null;
    this.current = null;
    this.streamed = null;
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
    if (this.bvhTimer) clearTimeout(this.bvhTimer);
    this.bvhTimer = null;
  }

  private scheduleBvh(delayMs = 0): void {
    if (this.bvhTimer || this.disposed) return;
    this.bvhTimer = setTimeout(() => {
      this.bvhTimer = null;
      if (this.disposed) return;
      if (this.deps.navigating?.()) {
        this.scheduleBvh(IDLE_BUSY_WAIT_MS);
        return;
      }
      const next = this.current?.chunks.find((c) => !c.hasBvh);
      if (next) next.buildBvh();
      else if (
        !this.current ||
        this.streamed !== this.current ||
        (this.current.buildBoxTree(BOX_TREE_SLICE_MS) && this.current.warmBoxSelect(this.deps.boxView?.() ?? null))
      )
        return;
      this.scheduleBvh();
    }, delayMs);
  }
}
