/**
 * The render worker (ARCHITECTURE.md "workers/"): creates the engine and exposes its EngineApi facade
 * with Comlink, and hosts the WebAssembly geometry kernel: it fetches wasm/dist/keelson_kernel.wasm
 * (a Vite asset) and installs it; without it (no WebAssembly, not built, fetch failed) the engine keeps
 * its TypeScript kernel and one line is logged. Likewise for meshoptimizer's simplifier (LOD levels). No logic of its own; the UI reaches it through
 * ui/engine/EngineClient.ts.
 */
import * as Comlink from 'comlink';
import { Engine } from '../engine/Engine';
import { loadGeometryKernel } from '../engine/wasm/install';
import { simplifierLoaded } from '../engine/scene/lodSimplify';

const KERNEL_URL = new URL('../wasm/dist/keelson_kernel.wasm', import.meta.url);

void loadGeometryKernel(async () => {
  const r = await fetch(KERNEL_URL);
  if (!r.ok) throw new Error(`${KERNEL_URL.pathname} answered ${r.status}`);
  return r.arrayBuffer();
}).then((k) => {
  if (k) console.info(`Geometry kernel: WebAssembly loaded (${k.exports.memory.buffer.byteLength} bytes of memory)`);
});

// meshoptimizer's simplifier (WebAssembly inside its npm module) starts the LOD levels; without it they
// are built by vertex clustering alone, and lodSimplify.ts logs why.
void simplifierLoaded.then((ok) => {
  if (ok) console.info('LOD simplifier: meshoptimizer loaded');
});

Comlink.expose(new Engine());
