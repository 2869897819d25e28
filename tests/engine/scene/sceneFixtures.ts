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

/** A 2000 × 2000 × 10 mm plate: top and bottom faces as n × n grids (outward normals), rim as quads. */
export function gridPlate(object: number, n: number): PartMesh {
  const pos: number[] = [],
    idx: number[] = [];
  const L = 2000,
    T = 10;
  const v = (i: number, j: number, z: number) => (pos.push((i / n) * L, (j / n) * L, z), pos.length / 3 - 1);
  const top: number[][] = [],
    bot: number[][] = [];
  for (let i = 0; i <= n; i++) {
    top.push([]);
    bot.push([]);
    for (let j = 0; j <= n; j++) {
      top[i].push(v(i, j, T));
      bot[i].push(v(i, j, 0));
    }
  }
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      idx.push(top[i][j], top[i + 1][j], top[i + 1][j + 1], top[i][j], top[i + 1][j + 1], top[i][j + 1]);
      idx.push(bot[i][j], bot[i + 1][j + 1], bot[i + 1][j], bot[i][j], bot[i][j + 1], bot[i + 1][j + 1]);
    }
  const ring: [number, number][] = [];
  for (let i = 0; i < n; i++) ring.push([i, 0]);
  for (let j = 0; j < n; j++) ring.push([n, j]);
  for (let i = n; i > 0; i--) ring.push([i, n]);
  for (let j = n; j > 0; j--) ring.push([0, j]);
  ring.forEach(([i, j], k) => {
    const [i2, j2] = ring[(k + 1) % ring.length];
    idx.push(bot[i][j], bot[i2][j2], top[i2][j2], bot[i][j], top[i2][j2], top[i][j]);
  });
  return {
    object,
    positions: new Float32Array(pos),
    normals: new Float32Array(pos.length),
    indices: new Uint32Array(idx),
    edges: new Float32Array(0),
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

/**
 * Area (mm²) of the triangles of a list (indices into a quantised chunk's vertices) that face +z (`sign` 1)
 * or −z (−1): a plate's top or bottom face.
 */
export function facingArea(
  c: { positions: Uint16Array; bounds: ArrayLike<number> },
  indices: ArrayLike<number>,
  sign: 1 | -1,
): number {
  const s = [0, 1, 2].map((a) => (c.bounds[a + 3] > c.bounds[a] ? (c.bounds[a + 3] - c.bounds[a]) / 65535 : 1));
  let area = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const p = [0, 1, 2].map((k) => [0, 1, 2].map((a) => c.positions[indices[t + k] * 3 + a] * s[a]));
    const nz = ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0])) / 2;
    if (nz * sign > 0) area += Math.abs(nz);
  }
  return area;
}
