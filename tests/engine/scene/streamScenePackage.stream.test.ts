import { describe, expect, it } from 'vitest';
import { streamScenePackage } from '../../../engine/scene/streamScenePackage';
import type { LoadProgress } from '../../../engine/EngineApi';
import { boxMesh, fakeFetch, packageBytes } from './sceneFixtures';

const bytes = packageBytes(
  [0, 1, 2, 3, 4].map((i) => boxMesh(i, [i * 100, 0, 0], [i * 100 + 50, 50, 50])),
  5,
  12,
);

describe('streamScenePackage', () => {
  it('hands over the header, then every chunk, from a stream split anywhere', async () => {
    const order: string[] = [];
    const r = await streamScenePackage(
      '/m.sc',
      {},
      {
        fetchFn: fakeFetch(bytes, { pieces: 23 }),
        onHeader: (h) => order.push(`h${h.chunkCount}`),
        onChunk: (c) => order.push(`c${c.index}`),
      },
    );
    expect(order).toEqual(['h5', 'c0', 'c1', 'c2', 'c3', 'c4']);
    expect(r).toMatchObject({ bytes: bytes.length, chunks: 5 });
  });
  it('throttles progress to one per interval plus a final report', async () => {
    let clock = 0;
    const reports: LoadProgress[] = [];
    await streamScenePackage(
      '/m.sc',
      {},
      {
        fetchFn: fakeFetch(bytes, { pieces: 40 }),
        now: () => (clock += 10), // 10 ms per piece: at most every 10th piece may report
        onHeader() {},
        onChunk() {},
        onProgress: (p) => reports.push(p),
      },
    );
    expect(reports.length).toBeGreaterThan(1);
    expect(reports.length).toBeLessThanOrEqual(6);
    expect(reports[reports.length - 1]).toEqual({
      loadedBytes: bytes.length,
      totalBytes: bytes.length,
      chunksLoaded: 5,
      chunkCount: 5,
    });
  });
  it('names HTTP failures and truncation', async () => {
    const h = { onHeader() {}, onChunk() {} };
    await expect(streamScenePackage('/m.sc', {}, { ...h, fetchFn: fakeFetch(bytes, { status: 403 }) })).rejects.toThrow(
      'Loading model failed: HTTP 403 Not Found for /m.sc',
    );
    await expect(streamScenePackage('/m.sc', {}, { ...h, fetchFn: fakeFetch(bytes.slice(0, 50)) })).rejects.toThrow(
      /^Loading model failed: .*truncated/i,
    );
  });
  it('stops on abort with an AbortError', async () => {
    const ctrl = new AbortController();
    const p = streamScenePackage(
      '/m.sc',
      {},
      { signal: ctrl.signal, fetchFn: fakeFetch(bytes, { pieces: 50 }), onHeader: () => ctrl.abort(), onChunk() {} },
    );
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});
