// The build step before a server start (`npm start`, `npm run start:cluster`): the WebAssembly kernel (best
// effort) and the UI, rebuilt when dist/ui is missing or older than the ui/, engine/, workers/ sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return t;
}

/** Builds what is missing or stale; exits the process with vite's status when the UI build fails. */
export function prepareUi() {
  const index = path.join(root, 'dist/ui/index.html');
  // The WebAssembly kernel (best effort: without Debian's Rust toolchain the engine uses its TypeScript kernel).
  const wasm = spawnSync(process.execPath, [path.join(root, 'scripts/buildWasm.mjs')], { cwd: root, stdio: 'inherit' });
  if (wasm.status !== 0) console.log('WebAssembly kernel not built: the TypeScript kernel is used.');
  const sources = Math.max(...['ui', 'engine', 'workers', 'wasm/dist'].map((d) => newest(path.join(root, d))));
  if (!existsSync(index) || statSync(index).mtimeMs < sources) {
    console.log('Building the UI (vite build)...');
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
