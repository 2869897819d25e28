import { Engine, type EngineRenderer } from '../../engine/Engine';

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
