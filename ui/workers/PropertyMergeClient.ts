/**
 * The page's handle on the properties worker (ui/workers/propertyMerge.worker.ts): starts it as a module
 * worker, wraps its API with Comlink and terminates it on dispose (whoever creates disposes).
 */
import * as Comlink from 'comlink';
import type { PropertyMergeApi } from './propertyMerge.worker';

export class PropertyMergeClient {
  /** The worker's API (every call returns a promise). */
  readonly api: Comlink.Remote<PropertyMergeApi>;
  private readonly worker: Worker;

  constructor() {
    this.worker = new Worker(new URL('./propertyMerge.worker.ts', import.meta.url), {
      type: 'module',
      name: 'keelson-properties',
    });
    this.api = Comlink.wrap<PropertyMergeApi>(this.worker);
  }

  /** Ends the worker. */
  dispose(): void {
    this.api[Comlink.releaseProxy]();
    this.worker.terminate();
  }
}
