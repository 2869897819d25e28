/**
 * The geometry kernel in use on this thread: the WebAssembly kernel once a host has installed it,
 * else none, and the engine runs its TypeScript reference (engine/section/slice.ts) instead. The host
 * supplies the module (engine/node/wasm/loadKernel.ts reads the file; the render worker fetches it):
 * engine/ itself reads no files and fetches nothing.
 */
import { GeometryKernel } from './GeometryKernel';

let current: GeometryKernel | null = null;

/** The installed kernel, or null (TypeScript fallback). */
export function geometryKernel(): GeometryKernel | null {
  return current;
}

/** Installs (or, with null, removes) the kernel used by indexes built from now on. */
export function installGeometryKernel(kernel: GeometryKernel | null): void {
  current = kernel;
}

/** What a host hands over: the module's bytes or a compiled module. */
export type KernelSource = BufferSource | WebAssembly.Module;

/**
 * Loads and installs the kernel from `source` (called once by the host). On any failure — no
 * WebAssembly in this runtime, a missing file, a module that is not the kernel — it logs one line
 * through `log` and leaves the TypeScript fallback in place. @returns the kernel, or null on fallback.
 */
export async function loadGeometryKernel(
  source: () => KernelSource | Promise<KernelSource>,
  log: (line: string) => void = (l) => console.warn(l),
): Promise<GeometryKernel | null> {
  try {
    if (typeof WebAssembly !== 'object') throw new Error('WebAssembly is not available');
    const s = await source();
    const k = s instanceof WebAssembly.Module ? GeometryKernel.fromModule(s) : await GeometryKernel.fromBytes(s);
    installGeometryKernel(k);
    return k;
  } catch (e) {
    log(`Geometry kernel: WebAssembly not loaded (${(e as Error).message}); using the TypeScript kernel`);
    return null;
  }
}
