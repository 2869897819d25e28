/** OpenCascade's wasm (occt-import-js) compiled in the server process, for the CAD conversion threads. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

let compiled: Promise<WebAssembly.Module> | undefined;
/**
 * OpenCascade's wasm compiled once per process (V8 compiles it off the event loop); the module is sent to
 * each conversion thread, which only instantiates it. A failed compile is retried at the next call.
 */
export function occtWasm(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const js = createRequire(import.meta.url).resolve('occt-import-js');
    return WebAssembly.compile(await readFile(path.join(path.dirname(js), 'occt-import-js.wasm')));
  })().catch((e: unknown) => {
    compiled = undefined;
    throw e;
  });
  return compiled;
}
