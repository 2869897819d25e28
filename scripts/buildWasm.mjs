/**
 * Builds the WebAssembly geometry kernel (`npm run build:wasm`): the Rust crate in wasm/ compiled for
 * wasm32-unknown-unknown with Debian's toolchain (/usr/bin/cargo with RUSTC=/usr/bin/rustc, called
 * explicitly because another rustc may come first on the PATH; the wasm32 standard library is Debian's
 * libstd-rust-dev-wasm32), then shrunk by `wasm-opt -O3` (Debian's binaryen) when it is installed.
 * Output: wasm/dist/keelson_kernel.wasm (git-ignored: built, never committed). Skips the build when the
 * output is newer than every source file; `--force` rebuilds. Exits non-zero with the reason when the
 * toolchain is missing or the build fails.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const crate = path.join(root, 'wasm');
/** Where the built kernel is written. */
export const KERNEL_WASM = path.join(crate, 'dist', 'keelson_kernel.wasm');
const CARGO = '/usr/bin/cargo';
const RUSTC = '/usr/bin/rustc';

function newestSource() {
  let newest = statSync(path.join(crate, 'Cargo.toml')).mtimeMs;
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(path.join(crate, 'src'));
  return newest;
}

function hasTool(cmd) {
  try {
    execFileSync(cmd, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the kernel unless it is up to date. @returns the path of the .wasm file.
 * @throws Error when Debian's cargo/rustc are missing or the build fails.
 */
export function buildWasm({ force = false, quiet = false } = {}) {
  if (!force && existsSync(KERNEL_WASM) && statSync(KERNEL_WASM).mtimeMs >= newestSource()) return KERNEL_WASM;
  if (!existsSync(CARGO) || !existsSync(RUSTC))
    throw new Error(
      `build:wasm needs Debian's toolchain at ${CARGO} and ${RUSTC} (apt-get install rustc cargo libstd-rust-dev-wasm32)`,
    );
  const log = quiet ? () => {} : (m) => console.error(m);
  log('build:wasm: cargo build --release --target wasm32-unknown-unknown');
  execFileSync(CARGO, ['build', '--release', '--target', 'wasm32-unknown-unknown', '--offline'], {
    cwd: crate,
    env: { ...process.env, RUSTC, CARGO_TARGET_DIR: path.join(crate, 'target') },
    stdio: quiet ? ['ignore', 'ignore', 'pipe'] : 'inherit',
  });
  const built = path.join(crate, 'target', 'wasm32-unknown-unknown', 'release', 'keelson_kernel.wasm');
  mkdirSync(path.dirname(KERNEL_WASM), { recursive: true });
  if (hasTool('wasm-opt')) {
    log('build:wasm: wasm-opt -O3');
    execFileSync('wasm-opt', ['-O3', built, '-o', KERNEL_WASM], { stdio: quiet ? 'ignore' : 'inherit' });
  } else {
    log('build:wasm: wasm-opt not found, copying the unoptimised module');
    copyFileSync(built, KERNEL_WASM);
  }
  log(`build:wasm: ${path.relative(root, KERNEL_WASM)} (${statSync(KERNEL_WASM).size} bytes)`);
  return KERNEL_WASM;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildWasm({ force: process.argv.includes('--force') });
  } catch (e) {
    console.error(`build:wasm: ${e.message}`);
    process.exit(1);
  }
}
