/**
 * The WebAssembly geometry kernel against the TypeScript reference (engine/section): plane slicing,
 * segment chaining and the section index's triangle-block extents give bit-identical results on random
 * inputs (fast-check) and on the NAPA sample models (whole sections on every axis, through the index
 * and through the linear scan). Tolerance: none — every coordinate is compared with Object.is.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { ImportResult } from '../../../engine/model/types';
import { computeSection } from '../../../engine/section/section';
import { SectionIndex } from '../../../engine/section/SectionIndex';
import { chainSegments, sliceTriangles } from '../../../engine/section/slice';
import type { SectionAxis, SectionPolyline } from '../../../engine/section/types';
import type { GeometryKernel } from '../../../engine/wasm/GeometryKernel';
import { builtKernel } from './kernelFixture';

let kernel: GeometryKernel;
beforeAll(() => {
  kernel = builtKernel();
});

/** Values equal bit for bit (NaN equals NaN, +0 differs from −0). */
function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function samePolylines(a: SectionPolyline[], b: SectionPolyline[]): boolean {
  return a.length === b.length && a.every((p, i) => p.closed === b[i].closed && sameValues(p.points, b[i].points));
}

/** Coordinates on a coarse grid (so vertices often lie exactly on the plane and endpoints coincide). */
const coord = fc.integer({ min: -40, max: 40 }).map((i) => i * 0.25);
const triangle = fc.array(coord, { minLength: 9, maxLength: 9 });

describe('slicing', () => {
  it('cuts random triangles into the same segments, bit for bit', () => {
    fc.assert(
      fc.property(
        fc.array(triangle, { maxLength: 60 }),
        fc.constantFrom<0 | 1 | 2>(0, 1, 2),
        coord,
        fc.option(coord, { nil: undefined }),
        (tris, axis, c, project) => {
          const soup = new Float32Array(tris.flat());
          const ref: number[] = [];
          const nRef = sliceTriangles(
            soup,
            Uint32Array.from(soup.subarray(0, soup.length / 3), (_, i) => i),
            0,
            soup.length / 3,
            axis,
            c,
            ref,
            project ?? c,
          );
          kernel.clearSegments();
          const n = kernel.sliceSoup(soup, axis, c, project ?? c);
          expect(n).toBe(nRef);
          expect(sameValues(kernel.segments(), ref)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('chaining', () => {
  it('chains random segments (shared, reversed, near-coincident, zero-length) into the same polylines', () => {
    const point = fc.array(coord, { minLength: 3, maxLength: 3 });
    // Walks over a small set of points make chains, branches, loops and repeats; jitter tests the tolerances.
    const segments = fc
      .tuple(
        fc.array(point, { minLength: 2, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(0, 0, 0, 1e-4, 0.4, 0.9, 1.5)), { maxLength: 80 }),
      )
      .map(([pts, pairs]) =>
        pairs.flatMap(([i, j, jitter]) => [...pts[i % pts.length], ...pts[j % pts.length].map((v) => v + jitter)]),
      );
    fc.assert(
      fc.property(segments, (segs) => {
        const ref = chainSegments(segs);
        kernel.clearSegments();
        kernel.pushSegments(segs);
        expect(samePolylines(kernel.chain(), ref)).toBe(true);
        // Dropping collinear points (coarse: the grid's steps make many) decides alike.
        kernel.clearSegments();
        kernel.pushSegments(segs);
        expect(
          samePolylines(kernel.chain(undefined, undefined, undefined, 0.3), chainSegments(segs, 1, 1e-3, 0.3)),
        ).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('chains segments lying in an axis plane the same with and without the fixed-axis weld', () => {
    // Section segments all share the projected axis value; the kernel then rounds it once. Branches
    // (vertices of three or more endpoints) take the kernel's general adjacency, paths its mate table.
    const point = fc.array(coord, { minLength: 2, maxLength: 2 });
    const input = fc.tuple(
      fc.constantFrom<0 | 1 | 2>(0, 1, 2),
      fc.oneof(coord, fc.constant(13.7), fc.constant(-0.0005)),
      fc.array(point, { minLength: 2, maxLength: 10 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(0, 0, 0, 1e-4, 0.4, 1.5)), { maxLength: 80 }),
    );
    fc.assert(
      fc.property(input, ([axis, value, pts, pairs]) => {
        const at = (p: number[], jitter: number) => {
          const q = p.map((v) => v + jitter);
          q.splice(axis, 0, value);
          return q;
        };
        const segs = pairs.flatMap(([i, j, jitter]) => [
          ...at(pts[i % pts.length], 0),
          ...at(pts[j % pts.length], jitter),
        ]);
        const ref = chainSegments(segs);
        kernel.clearSegments();
        kernel.pushSegments(segs);
        expect(samePolylines(kernel.chain(undefined, undefined, { axis, value }), ref)).toBe(true);
        kernel.clearSegments();
        kernel.pushSegments(segs);
        expect(samePolylines(kernel.chain(), ref)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('chains paths and loops without branches, shuffled and reversed, the same through the mate table', () => {
    // Distinct points per polyline, so no vertex has a third endpoint unless the extra segment adds one
    // (then the kernel leaves its mate table for the general weld part-way through).
    const polyline = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.boolean());
    const input = fc.tuple(
      fc.constantFrom<0 | 1 | 2>(0, 1, 2),
      fc.array(polyline, { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 0, max: 1_000_000 }),
      fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: null }),
    );
    fc.assert(
      fc.property(input, ([axis, lines, seed, extra]) => {
        let r = seed;
        const rand = () => (r = (r * 1103515245 + 12345) % 2147483648) / 2147483648;
        const points: number[][] = [];
        const segs: number[][] = [];
        for (const [n, closed] of lines) {
          const base = points.length;
          for (let i = 0; i <= n; i++) {
            const q = [points.length * 3.5 + rand(), rand() * 100];
            q.splice(axis, 0, 7.25);
            points.push(q);
          }
          for (let i = 0; i < n; i++) segs.push([...points[base + i], ...points[base + i + 1]]);
          if (closed && n >= 2) segs.push([...points[base + n], ...points[base]]);
        }
        if (extra) segs.push([...points[extra[0] % points.length], ...points[extra[1] % points.length]]);
        for (let i = segs.length - 1; i > 0; i--) {
          const j = Math.floor(rand() * (i + 1));
          [segs[i], segs[j]] = [segs[j], segs[i]];
        }
        const flat = segs.flatMap((s) => (rand() < 0.5 ? s : [...s.slice(3), ...s.slice(0, 3)]));
        const ref = chainSegments(flat);
        kernel.clearSegments();
        kernel.pushSegments(flat);
        expect(samePolylines(kernel.chain(undefined, undefined, { axis, value: 7.25 }), ref)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('drops the same segments as the reference at the zero-length boundary (squared length tested)', () => {
    // Segment lengths a few ulps either side of the tolerance, along one axis and diagonally, for several
    // tolerances: the kernel compares the squared length with a threshold found once, the reference the
    // square root with the tolerance; every keep-or-drop decision must agree.
    const ulps = (x: number, n: number) => {
      const f = new Float64Array([x]);
      const b = new BigInt64Array(f.buffer);
      b[0] += BigInt(n);
      return f[0];
    };
    // 0.25702176357141093 and 1.7728414649319637: tolerances whose square, rounded, is not the threshold.
    for (const zeroLen of [1e-3, 0.37, 1, 0.25702176357141093, 1.7728414649319637, 1e-300, 0]) {
      const segs: number[] = [];
      for (let n = -4; n <= 4; n++) {
        const d = zeroLen > 0 ? ulps(zeroLen, n) : Math.abs(n) * 1e-12;
        // Isolated segments, 3 mm or more apart (beyond the 1 mm closed tolerance), so that each kept one
        // is a polyline of its own.
        const y0 = segs.length;
        segs.push(0, y0, 5, d, y0, 5);
        segs.push(0, y0 + 3, 5, d * Math.SQRT1_2, y0 + 3 + d * Math.SQRT1_2, 5);
        segs.push(0, y0 + 6, 5, d * 0.6, y0 + 6 + d * 0.8, 5);
      }
      const ref = chainSegments(segs, undefined, zeroLen);
      for (const fixed of [undefined, { axis: 2 as const, value: 5 }]) {
        kernel.clearSegments();
        kernel.pushSegments(segs);
        // (At 1e-300 every square underflows to 0 and the reference drops them all.)
        if (zeroLen >= 1e-3) expect(ref.length).toBeGreaterThan(0);
        expect(samePolylines(kernel.chain(undefined, zeroLen, fixed), ref)).toBe(true);
      }
    }
  });

  it('joins many open pieces (shuffled, reversed, ends moved within the closed tolerance) in the same order', () => {
    // Pieces of a few random polylines whose shared ends are moved by up to 0.9 mm: the welding keeps them
    // apart, so every join happens in the open-chain pass, many per call.
    const piece = fc.tuple(fc.nat(), fc.boolean(), fc.constantFrom(0, 0.3, 0.9, 1.2));
    const input = fc.tuple(
      fc.array(fc.array(fc.array(coord, { minLength: 3, maxLength: 3 }), { minLength: 2, maxLength: 30 }), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.array(piece, { minLength: 1, maxLength: 60 }),
    );
    fc.assert(
      fc.property(input, ([lines, picks]) => {
        const segs: number[] = [];
        for (const [n, flip, jitter] of picks) {
          const line = lines[n % lines.length];
          const i = Math.floor(n / lines.length) % (line.length - 1);
          const a = line[i],
            b = line[i + 1].map((v) => v + jitter);
          segs.push(...(flip ? [...b, ...a] : [...a, ...b]));
        }
        const ref = chainSegments(segs);
        kernel.clearSegments();
        kernel.pushSegments(segs);
        expect(samePolylines(kernel.chain(), ref)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('chains the slices of closed random boxes into the same closed loops', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(coord, coord, coord, coord, coord, coord), { maxLength: 6 }), coord, (boxes, c) => {
        const soup: number[] = [];
        for (const [a, b, d, e, f, g] of boxes)
          soup.push(...boxTriangles(a, b, d, a + Math.abs(e) + 1, b + Math.abs(f) + 1, d + Math.abs(g) + 1));
        const segs: number[] = [];
        const f32 = new Float32Array(soup);
        sliceTriangles(
          f32,
          Uint32Array.from({ length: f32.length / 3 }, (_, i) => i),
          0,
          f32.length / 3,
          2,
          c,
          segs,
        );
        kernel.clearSegments();
        kernel.sliceSoup(f32, 2, c);
        const ref = chainSegments(segs);
        expect(samePolylines(kernel.chain(), ref)).toBe(true);
        expect(ref.every((p) => p.closed)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

/** The 12 triangles of an axis-aligned box, as a soup (9 values each). */
function boxTriangles(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number[] {
  const v = [
    [x0, y0, z0],
    [x1, y0, z0],
    [x1, y1, z0],
    [x0, y1, z0],
    [x0, y0, z1],
    [x1, y0, z1],
    [x1, y1, z1],
    [x0, y1, z1],
  ];
  const quads = [
    [0, 3, 2, 1],
    [4, 5, 6, 7],
    [0, 1, 5, 4],
    [1, 2, 6, 5],
    [2, 3, 7, 6],
    [3, 0, 4, 7],
  ];
  return quads.flatMap(([a, b, c, d]) => [a, b, c, a, c, d].flatMap((i) => v[i]));
}

const SAMPLES = path.resolve(__dirname, '../../../../shared/models/ocx');
const napa = readdirSync(SAMPLES).filter((f) => f.startsWith('NAPA') && f.endsWith('.3docx'));

describe.each(napa)('sections of %s', (file) => {
  let r: ImportResult;
  let wasmIndex: SectionIndex;
  let tsIndex: SectionIndex;
  beforeAll(async () => {
    r = await importOcxFile(path.join(SAMPLES, file));
    wasmIndex = SectionIndex.fromMeshes(r.meshes, kernel);
    tsIndex = SectionIndex.fromMeshes(r.meshes, null);
  });

  it('has the same triangle-block extents from the kernel', () => {
    expect(wasmIndex.store).not.toBeNull();
    expect(tsIndex.store).toBeNull();
    expect(wasmIndex.blockBounds.length).toBeGreaterThan(0);
    expect(sameValues(wasmIndex.blockBounds, tsIndex.blockBounds)).toBe(true);
    expect(wasmIndex.ranges).toEqual(tsIndex.ranges);
  });

  it('cuts identical sections on X, Y and Z (index and linear scan)', () => {
    const b = tsIndex.bounds();
    let curves = 0;
    for (const [axis, k] of [
      ['X', 0],
      ['Y', 1],
      ['Z', 2],
    ] as [SectionAxis, number][]) {
      for (const f of [0.13, 0.31, 0.5, 0.77, 0.93]) {
        const c = b[k] + (b[k + 3] - b[k]) * f;
        for (const linear of [false, true]) {
          const model = { objects: r.objects, properties: r.properties, frames: r.frames };
          const w = computeSection({ ...model, index: wasmIndex }, axis, c, { linear });
          const t = computeSection({ ...model, index: tsIndex }, axis, c, { linear });
          // Object.is-exact: JSON keeps every double's digits (there are no NaN or −0 in sections).
          expect(JSON.stringify(w)).toBe(JSON.stringify(t));
          curves += w.steel.plates.intersected.length + w.steel.stiffeners.intersected.length;
        }
      }
    }
    expect(curves).toBeGreaterThan(0);
  });
});
