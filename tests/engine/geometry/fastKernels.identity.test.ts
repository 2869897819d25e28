/**
 * The allocation-free replacements used by the import
 * give exactly what they replace —
 * - hypot2/hypot3 equal Math.hypot bit for bit (NaN, ±Infinity, −0, subnormals, huge values); len3
 *   within two units in the last place of it, and equal to it where the plain sum of squares would
 *   overflow or underflow;
 * - num/numList (plain-decimal fast path) equal Number() bit for bit;
 * - SurfaceLifter.liftInto (flat per-cell lists) returns the hit a brute-force scan of every triangle
 *   finds (closest height to the expected one, the first triangle among equals);
 * - MeshBuilder's bulk appends (addVertices/addTriangles/addEdges) build the same mesh as per-item calls.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hypot2, hypot3, len3 } from '../../../engine/geometry/curves';
import { MeshBuilder } from '../../../engine/geometry/MeshBuilder';
import { appendGrid, SurfaceLifter, type SurfaceMesh } from '../../../engine/geometry/surfaceMesh';
import { num, numList } from '../../../engine/ocx/xmlTree';

const anyDouble = fc.oneof(
  fc.double(),
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 5e-324, 1.7976931348623157e308),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
);

describe('hypot2 / hypot3', () => {
  it('equal Math.hypot bit for bit', () => {
    fc.assert(
      fc.property(anyDouble, anyDouble, anyDouble, (x, y, z) => {
        expect(Object.is(hypot3(x, y, z), Math.hypot(x, y, z))).toBe(true);
        expect(Object.is(hypot2(x, y), Math.hypot(x, y))).toBe(true);
      }),
      { numRuns: 20000 },
    );
  });
});

describe('len3', () => {
  it('is Math.hypot to two ulps, and exactly where the sum of squares leaves the safe range', () => {
    fc.assert(
      fc.property(anyDouble, anyDouble, anyDouble, (x, y, z) => {
        const got = len3(x, y, z),
          want = Math.hypot(x, y, z);
        const s = x * x + y * y + z * z;
        if (!(s > 1e-290 && s < 1e290)) expect(Object.is(got, want)).toBe(true);
        else expect(Math.abs(got - want)).toBeLessThanOrEqual(2 * Number.EPSILON * want);
      }),
      { numRuns: 20000 },
    );
  });
});

describe('num / numList', () => {
  const decimal = fc
    .tuple(
      fc.constantFrom('', '-', '+'),
      fc.stringMatching(/^[0-9]{0,17}$/),
      fc.boolean(),
      fc.stringMatching(/^[0-9]{0,24}$/),
    )
    .map(([s, a, dot, b]) => `${s}${a}${dot ? '.' : ''}${dot ? b : ''}`);
  it('equal Number() for plain decimals, printed doubles and odd tokens', () => {
    const odd = [
      '-0',
      '-0.0',
      '.5',
      '-.5',
      '5.',
      '.',
      '+',
      '-',
      '1e5',
      '1.5E-3',
      'NaN',
      'Infinity',
      '0x1f',
      '1..2',
      '--1',
      '9007199254740993',
      '0.1234567890123456789',
    ];
    for (const t of odd) expect(Object.is(num(t), Number(t))).toBe(true);
    fc.assert(
      fc.property(decimal, fc.double({ noNaN: true }), (d, x) => {
        if (d !== '') expect(Object.is(num(d), Number(d))).toBe(true);
        expect(Object.is(num(String(x)), Number(String(x)))).toBe(true); // String(-0) is '0'
        const list = numList(` ${d || '0'}\t${x}\r\n${d || '1'} `);
        expect(list.map((v) => (Object.is(v, -0) ? '-0' : String(v)))).toEqual(
          [Number(d || '0'), Number(String(x)), Number(d || '1')].map((v) => (Object.is(v, -0) ? '-0' : String(v))),
        );
      }),
      { numRuns: 20000 },
    );
  });
});

/** The hit of (x, y) by scanning every triangle (what the lifter must find when the point is covered). */
function bruteLift(
  mesh: SurfaceMesh,
  o: number[],
  N: number[],
  e1: number[],
  e2: number[],
  x: number,
  y: number,
  expected: number,
): number[] | null {
  const P = mesh.positions,
    I = mesh.indices;
  const n = Math.hypot(N[0], N[1], N[2]);
  const [Nx, Ny, Nz] = [N[0] / n, N[1] / n, N[2] / n];
  let best: number[] | null = null,
    bestH = Infinity;
  for (let t = 0; t < I.length / 3; t++) {
    const q = [0, 1, 2].map((k) => {
      const i = 3 * I[3 * t + k];
      const d = [P[i] - o[0], P[i + 1] - o[1], P[i + 2] - o[2]];
      return [d[0] * e1[0] + d[1] * e1[1] + d[2] * e1[2], d[0] * e2[0] + d[1] * e2[1] + d[2] * e2[2]];
    });
    const [[x0, y0], [x1, y1], [x2, y2]] = q;
    const det = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2);
    if (Math.abs(det) < 1e-12) continue;
    const l0 = ((y1 - y2) * (x - x2) + (x2 - x1) * (y - y2)) / det,
      l1 = ((y2 - y0) * (x - x2) + (x0 - x2) * (y - y2)) / det,
      l2 = 1 - l0 - l1;
    if (l0 < -1e-7 || l1 < -1e-7 || l2 < -1e-7) continue;
    const a = 3 * I[3 * t],
      b = 3 * I[3 * t + 1],
      c = 3 * I[3 * t + 2];
    const p = [0, 1, 2].map((k) => l0 * P[a + k] + l1 * P[b + k] + l2 * P[c + k]);
    const h = Math.abs((p[0] - o[0]) * Nx + (p[1] - o[1]) * Ny + (p[2] - o[2]) * Nz - expected);
    if (h < bestH) {
      bestH = h;
      best = p;
    }
  }
  return best;
}

describe('SurfaceLifter', () => {
  it('liftInto finds the brute-force hit on a folded surface (two layers over the plane)', () => {
    // a sheet folded back over itself: every covered point has two candidate hits at different heights
    const mesh: SurfaceMesh = { positions: [], indices: [] };
    appendGrid(mesh, 24, 10, (u, v, out) => {
      const a = u * 1.8 * Math.PI;
      out[0] = 1000 * Math.sin(a) + 3 * v;
      out[1] = 2000 * v;
      out[2] = 600 * Math.cos(a) + 40 * u * v;
    });
    const origin: [number, number, number] = [100, 900, 50];
    const lifter = new SurfaceLifter(mesh, origin, [0, 0.05, 1], 37);
    const [e1, e2] = lifter.basis;
    const out = new Float64Array(6);
    let covered = 0;
    fc.assert(
      fc.property(
        fc.double({ min: -1200, max: 1200, noNaN: true }),
        fc.double({ min: -1100, max: 1100, noNaN: true }),
        fc.constantFrom(-700, 0, 650),
        (x, y, expected) => {
          const brute = bruteLift(mesh, origin, [0, 0.05, 1], e1, e2, x, y, expected);
          const hit = lifter.liftInto(x, y, expected, out);
          if (brute) {
            covered++;
            expect(hit).toBe(true);
            expect([out[0], out[1], out[2]]).toEqual(brute);
            const w = lifter.lift(x, y, expected);
            expect(w?.point).toEqual(brute);
            expect(Math.hypot(out[3], out[4], out[5])).toBeCloseTo(1, 12);
          }
        },
      ),
      { numRuns: 400 },
    );
    expect(covered).toBeGreaterThan(100);
  });
});

describe('MeshBuilder bulk appends', () => {
  it('give the mesh of per-item calls', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 18, maxLength: 300 }),
        (xs) => {
          const nv = Math.floor(xs.length / 6);
          const one = new MeshBuilder(),
            bulk = new MeshBuilder();
          for (let i = 0; i < nv; i++)
            one.vertex(xs[6 * i], xs[6 * i + 1], xs[6 * i + 2], xs[6 * i + 3], xs[6 * i + 4], xs[6 * i + 5]);
          for (let i = 0; i + 2 < nv; i++) one.triangle(i, i + 1, i + 2);
          for (let i = 0; i + 1 < nv; i++)
            one.edge(xs[6 * i], xs[6 * i + 1], xs[6 * i + 2], xs[6 * i + 6], xs[6 * i + 7], xs[6 * i + 8]);
          const v0 = bulk.addVertices(nv);
          const t0 = bulk.addTriangles(Math.max(0, nv - 2));
          const g0 = bulk.addEdges(Math.max(0, nv - 1));
          const P = bulk.rawPositions,
            N = bulk.rawNormals,
            I = bulk.rawIndices,
            E = bulk.rawEdges;
          for (let i = 0; i < nv; i++)
            for (let k = 0; k < 3; k++) {
              P[3 * (v0 + i) + k] = xs[6 * i + k];
              N[3 * (v0 + i) + k] = xs[6 * i + 3 + k];
            }
          for (let i = 0; i + 2 < nv; i++) I.set([i, i + 1, i + 2], t0 + 3 * i);
          for (let i = 0; i + 1 < nv; i++)
            E.set([xs[6 * i], xs[6 * i + 1], xs[6 * i + 2], xs[6 * i + 6], xs[6 * i + 7], xs[6 * i + 8]], g0 + 6 * i);
          expect(bulk.build()).toEqual(one.build());
        },
      ),
      { numRuns: 200 },
    );
  });
});
