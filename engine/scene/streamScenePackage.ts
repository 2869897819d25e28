/**
 * Streams a `.sc` scene package over HTTP (viewer.md §2 "the model file is loaded with the .sc suffix",
 * §4 "Loading"): fetches with the given headers, reads the body piece by piece, pushes the pieces into
 * ScenePackageReader and hands over the header and each chunk as soon as it is complete, so the renderer
 * can draw parts as they arrive. Progress callbacks are throttled to at most one per `progressIntervalMs`
 * (default 100 ms, i.e. ≤ 10/s) plus a final one. No DOM: uses the global (or injected) fetch.
 */
import type { LoadProgress } from '../EngineApi';
import { ScenePackageReader } from '../package/reader';
import type { SceneChunk, SceneHeader } from '../package/types';

/** Callbacks and options of streamScenePackage. */
export interface SceneStreamHandlers {
  onHeader(header: SceneHeader): void;
  onChunk(chunk: SceneChunk): void;
  onProgress?(progress: LoadProgress): void;
  signal?: AbortSignal;
  /** fetch implementation (tests inject one); defaults to globalThis.fetch. */
  fetchFn?: typeof fetch;
  /** Clock for throttling, ms (defaults to performance.now / Date.now). */
  now?: () => number;
  progressIntervalMs?: number;
}

/** Totals of a completed stream. */
export interface SceneStreamResult {
  header: SceneHeader;
  bytes: number;
  chunks: number;
}

/**
 * Streams `url` into the handlers. Resolves when the package is complete.
 * @throws Error `Loading model failed: HTTP {status} {statusText} for {url}` on a non-2xx answer;
 *   `Loading model failed: {reason}` when the network fails, the body is missing, or the reader rejects the
 *   bytes (bad magic, truncated package, …); an AbortError when `signal` aborts.
 */
export async function streamScenePackage(
  url: string,
  headers: Record<string, string>,
  h: SceneStreamHandlers,
): Promise<SceneStreamResult> {
  const fetchFn = h.fetchFn ?? globalThis.fetch;
  const now = h.now ?? (() => (globalThis.performance ? globalThis.performance.now() : Date.now()));
  const interval = h.progressIntervalMs ?? 100;
  let response: Response;
  try {
    response = await fetchFn(url, { headers, signal: h.signal });
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new Error(`Loading model failed: ${(e as Error).message ?? String(e)} (${url})`);
  }
  if (!response.ok) {
    throw new Error(
      `Loading model failed: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} for ${url}`,
    );
  }
  if (!response.body) throw new Error(`Loading model failed: the response for ${url} has no body`);
  const lengthHeader = response.headers.get('content-length');
  const totalBytes = lengthHeader && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;

  const reader = new ScenePackageReader();
  const body = response.body.getReader();
  let header: SceneHeader | null = null;
  let bytes = 0,
    chunks = 0,
    lastProgress = -Infinity;
  const progress = (force: boolean) => {
    const t = now();
    if (!h.onProgress || (!force && t - lastProgress < interval)) return;
    lastProgress = t;
    h.onProgress({
      loadedBytes: bytes,
      totalBytes,
      chunksLoaded: chunks,
      chunkCount: header ? header.chunkCount : null,
    });
  };
  try {
    for (;;) {
      // Checked here too: a body source that ignores the signal must not keep feeding a cancelled load.
      if (h.signal?.aborted) throw abortError();
      const { done, value } = await body.read();
      if (done) break;
      if (!value || value.length === 0) continue;
      bytes += value.length;
      for (const ev of reader.push(value)) {
        if (ev.type === 'header') {
          header = ev.header;
          h.onHeader(ev.header);
        } else {
          chunks++;
          h.onChunk(ev.chunk);
        }
      }
      progress(false);
    }
    if (h.signal?.aborted) throw abortError();
    reader.end();
  } catch (e) {
    body.cancel().catch(() => undefined);
    if (isAbort(e) || h.signal?.aborted) throw abortError();
    const msg = (e as Error).message ?? String(e);
    throw new Error(msg.startsWith('Loading model failed') ? msg : `Loading model failed: ${msg}`);
  }
  if (!header) throw new Error(`Loading model failed: ${url} holds no scene package header`);
  progress(true);
  return { header, bytes, chunks };
}

function isAbort(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: string }).name === 'AbortError';
}

function abortError(): Error {
  const e = new Error('Loading model cancelled');
  e.name = 'AbortError';
  return e;
}
