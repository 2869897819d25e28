/** Test fixtures: axis-aligned box parts encoded as a `.sc` package, and a fetch serving it in pieces. */
import type { PartMesh } from '../../../engine/model/types';
import { concatFrames, encodeScenePackage } from '../../../engine/package/writer';

/** A closed box part (mm) with flat normals and its 12 edges. */
export function boxMesh(object: number, min: [number, number, number], max: [number, number, number]): PartMesh {
  const positions: number[] = [],
    normals: number[] = [],
    indices: number[] = [],
    edges: number[] = [];
  const c = (i: number) => [i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]];
  const faces: [number[], [number, number, number]][] = [
    [
      [0, 2, 6, 4],
      [-1, 0, 0],
    ],
    [
      [1, 5, 7, 3],
      [1, 0, 0],
    ],
    [
      [0, 4, 5, 1],
      [0, -1, 0],
    ],
    [
      [2, 3, 7, 6],
      [0, 1, 0],
    ],
    [
      [0, 1, 3, 2],
      [0, 0, -1],
    ],
    [
      [4, 6, 7, 5],
      [0, 0, 1],
    ],
  ];
  for (const [quad, n] of faces) {
    const base = positions.length / 3;
    for (const q of quad) {
      positions.push(...c(q));
      normals.push(...n);
    }
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  for (const [a, b] of [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
    [0, 2],
    [1, 3],
    [4, 6],
    [5, 7],
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
  ]) {
    edges.push(...c(a), ...c(b));
  }
  return {
    object,
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    indices: new Uint32Array(indices),
    edges: new Float32Array(edges),
  };
}

/** Encodes meshes into one package buffer with bounds grown from the meshes. */
export function packageBytes(meshes: PartMesh[], objectCount: number, maxChunkTriangles?: number): Uint8Array {
  const frames = encodeScenePackage(
    meshes,
    {
      bounds: [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity],
      objectCount,
      tolerances: { chordalMm: 1, angularDeg: 10 },
    },
    { maxChunkTriangles },
  );
  return concatFrames(frames);
}

/** A fetch that answers `bytes` as a stream split into `pieces` parts, or an HTTP error status. */
export function fakeFetch(
  bytes: Uint8Array,
  options: { status?: number; pieces?: number; seen?: { url: string; headers: Record<string, string> }[] } = {},
): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    options.seen?.push({ url: String(input), headers: (init?.headers ?? {}) as Record<string, string> });
    if (options.status && options.status >= 400)
      return new Response('nope', { status: options.status, statusText: 'Not Found' });
    const n = Math.max(1, options.pieces ?? 3);
    const size = Math.ceil(bytes.length / n);
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (i >= bytes.length) return ctrl.close();
        ctrl.enqueue(bytes.slice(i, i + size));
        i += size;
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-length': String(bytes.length) } });
  }) as typeof fetch;
}
