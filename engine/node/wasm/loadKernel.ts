/**
 * Node host of the WebAssembly geometry kernel (server section routes, conversion workers, bench,
 * tests): reads wasm/dist/keelson_kernel.wasm (built by `npm run build:wasm`) and installs it on the
 * calling thread, or logs one line and keeps the TypeScript fallback when it cannot.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GeometryKernel } from '../../wasm/GeometryKernel';
import { installGeometryKernel } from '../../wasm/install';

/** Where `npm run build:wasm` writes the kernel. */
export const KERNEL_WASM_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../wasm/dist/keelson_kernel.wasm',
);

/**
 * Compiles the kernel from `file` synchronously and installs it (unless `install` is false).
 * @returns the kernel, or null (with one line through `log`) when the file is missing or invalid.
 */
export function loadKernelSync(
  file = KERNEL_WASM_PATH,
  { install = true, log = (l: string) => console.warn(l) }: { install?: boolean; log?: (line: string) => void } = {},
): GeometryKernel | null {
  try {
    const k = GeometryKernel.fromModule(new WebAssembly.Module(readFileSync(file)));
    if (install) installGeometryKernel(k);
    return k;
  } catch (e) {
    log(`Geometry kernel: WebAssembly not loaded (${(e as Error).message}); using the TypeScript kernel`);
    return null;
  }
}
