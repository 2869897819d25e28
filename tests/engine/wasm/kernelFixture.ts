/**
 * Test fixture: builds the WebAssembly kernel (`npm run build:wasm`, skipped when up to date) and
 * compiles it without installing it, so each test chooses between the kernel and the TypeScript reference.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { GeometryKernel } from '../../../engine/wasm/GeometryKernel';
import { KERNEL_WASM_PATH, loadKernelSync } from '../../../engine/node/wasm/loadKernel';

const repo = path.resolve(__dirname, '../../..');

/** The built kernel, compiled (throws when it cannot be built or loaded: the tests need it). */
export function builtKernel(): GeometryKernel {
  execFileSync(process.execPath, [path.join(repo, 'scripts/buildWasm.mjs')], { cwd: repo, stdio: 'pipe' });
  const lines: string[] = [];
  const k = loadKernelSync(KERNEL_WASM_PATH, { install: false, log: (l) => lines.push(l) });
  if (!k) throw new Error(lines.join('\n'));
  return k;
}
