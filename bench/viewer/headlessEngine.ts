import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine, type EngineRenderer } from '../../engine/Engine';

/** Where the benches keep their generated ships and packages. */
const BENCH_OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../out');

/**
 * An engine in Node that draws nothing (a renderer of no-ops) and fetches its package from `bytes` at any
 * URL, initialised on a `width` × `height` CSS-pixel canvas: what the Node benches (picking, snapping,
 * clipping, GPU byte counts) load a bench ship into. Call `loadModel('/ship.sc', {})` next.
 */
export async function headlessEngine(bytes: Uint8Array, width: number, height: number): Promise<Engine> {
  const renderer: EngineRenderer = { setPixelRatio() {}, setSize() {}, render() {}, dispose() {} };
  const engine = new Engine({
    createRenderer: () => renderer,
    fetchFn: (async () =>
      new Response(bytes as Uint8Array<ArrayBuffer>, {
        headers: { 'content-length': String(bytes.length) },
      })) as typeof fetch,
  });
  await engine.init({ canvas: {} as OffscreenCanvas, width, height, pixelRatio: 1 });
  return engine;
}

/**
 * The bench ship of `parts` parts (bench/out/ship-<parts>.sc, made by the viewer or tools bench) loaded into a
 * headless engine on a `width` × `height` canvas. @throws Error naming the file when the package is missing.
 */
export async function loadBenchShip(parts: number, width: number, height: number): Promise<Engine> {
  const file = path.join(BENCH_OUT, `ship-${parts}.sc`);
  if (!existsSync(file)) throw new Error(`${file} is missing (run the viewer or tools bench first)`);
  const engine = await headlessEngine(new Uint8Array(await readFile(file)), width, height);
  await engine.loadModel('/ship.sc', {});
  return engine;
}
