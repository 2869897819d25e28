/**
 * Regressions found by the OCX importer fuzz (tests/fuzz/OcxImport.fuzz.test.ts), each with its minimal
 * reproducer inline. A start tag with 10⁵ attributes was checked for duplicate names pairwise (5·10⁹
 * comparisons, in the scanner and again in the namespace check): a 1.5 MB file held the import for minutes.
 * A start tag longer than a chunk was joined to the buffer again with every chunk, in the scanner and in the
 * pre-pass's splitter (which also scanned it again): quadratic in the tag's length over the chunk size.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { arcSegments, circumArc, MAX_SUBDIVISION_POINTS } from '../../engine/geometry/curves';
import { repairKnots } from '../../engine/geometry/nurbs';
import { gridCell, MAX_GRID_CELLS, MAX_GRID_WORK, triangulateGrid } from '../../engine/geometry/region2d';
import { importOcx, OcxImportError } from '../../engine/ocx/index';
import { segmentEndsWork } from '../../engine/geometry/segmentEnds';
import { type Inclination, resampleTrace } from '../../engine/ocx/memberMesh';
import { densify } from '../../engine/ocx/plateMesh';
import runFuzzCase from './ocxFuzz.worker';
import { loadBases, OCX_SAMPLES } from './ocxHarness';
import { rngOf } from './prng';
import { ocxCase } from './ocxMutations';

const M1 = readFileSync(path.join(OCX_SAMPLES, 'NAPA-OCX_M1.3docx'), 'utf8');

async function* chunks(text: string, size = 65536): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}
const run = (text: string) => importOcx(chunks(text), { reopen: () => chunks(text) });

/** M1 with `attrs` added to its Vessel's start tag. */
const withVesselAttributes = (attrs: string) => M1.replace('<ocx:Vessel ', `<ocx:Vessel${attrs} `);
const many = (n: number, name: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => ` ${name(i)}="${i}"`).join('');

describe('a start tag with 100,000 attributes (was quadratic)', () => {
  it('imports as without them when the names differ', async () => {
    const plain = await run(M1);
    const r = await run(withVesselAttributes(many(100_000, (i) => `a${i}`)));
    expect(r.objects.map((o) => o.id)).toEqual(plain.objects.map((o) => o.id));
  });

  it('is refused naming the repeated attribute and its line, also after 100,000 others', async () => {
    const doc = withVesselAttributes(`${many(100_000, (i) => `a${i}`)} a99999="again"`);
    const e = await run(doc).catch((x) => x);
    expect(e).toBeInstanceOf(OcxImportError);
    expect(e.message).toMatch(
      /^Malformed XML: duplicate attribute a99999 in the start tag <ocx:Vessel> \(line \d+, column \d+\)$/,
    );
  });

  it('is refused naming a repeated namespaced attribute (same namespace, same local name)', async () => {
    const doc = withVesselAttributes(`${many(100_000, (i) => `ocx:a${i}`)} ocx:a3="again"`);
    const e = await run(doc).catch((x) => x);
    expect(e).toBeInstanceOf(OcxImportError);
    expect(e.message).toMatch(/duplicate attribute ocx:a3 in the start tag <ocx:Vessel> \(line \d+, column \d+\)$/);
  });

  it('a few attributes are still checked by the short scan: a duplicate among 3 is refused', async () => {
    const e = await run(withVesselAttributes(' b="1" c="2" b="3"')).catch((x) => x);
    expect(e).toBeInstanceOf(OcxImportError);
    expect(e.message).toMatch(/duplicate attribute b in the start tag <ocx:Vessel>/);
  });
});

describe('a start tag of megabytes fed in small chunks (was quadratic in the chunk count)', () => {
  /** M1 with a 4 MB attribute value on its Vessel, in 256-byte pieces. */
  const doc = withVesselAttributes(` note="${'1 2 3 '.repeat(700_000)}"`);
  async function* pieces(): AsyncGenerator<string> {
    for (let i = 0; i < doc.length; i += 256) yield doc.slice(i, i + 256);
  }

  it('imports in one pass and in two passes as the plain file does', async () => {
    const plain = (await run(M1)).objects.map((o) => o.id);
    expect((await importOcx(pieces())).objects.map((o) => o.id)).toEqual(plain);
    expect((await importOcx(pieces(), { reopen: pieces })).objects.map((o) => o.id)).toEqual(plain);
  });

  it('a document cut inside that tag is still refused as truncated', async () => {
    const cut = doc.slice(0, doc.indexOf('<ocx:Vessel') + 3_000_000);
    async function* cutPieces(): AsyncGenerator<string> {
      for (let i = 0; i < cut.length; i += 256) yield cut.slice(i, i + 256);
    }
    const e = await importOcx(cutPieces(), { reopen: cutPieces }).catch((x) => x);
    expect(e).toBeInstanceOf(OcxImportError);
    expect(e.message).toMatch(/^The document is truncated: element <ocxXML> is not closed .*\(line \d+\)$/);
  });
});

describe('an arc with an absurd radius (was unbounded: the process died growing an array)', () => {
  // Fuzz seed 105460: a hole's CircumArc3D end point moved to y = 1e20 mm. Its radius (~5e19 mm) made the
  // chordal step 0 (1 - chordTol / r rounds to 1), so the arc asked for infinitely many points and V8
  // aborted the whole process on the array's size instead of throwing.
  it('cuts such an arc into at most MAX_SUBDIVISION_POINTS segments', () => {
    expect(arcSegments(5e19, Math.PI, 0.1, 0.2)).toBe(MAX_SUBDIVISION_POINTS);
    expect(arcSegments(9e15, Math.PI, 0.1, 0.2)).toBe(MAX_SUBDIVISION_POINTS);
    expect(arcSegments(1000, Math.PI, 0.1, 0.2)).toBeLessThan(200);
    const pts = circumArc([-125, 0, 0], [0, 125, 0], [-125, 1e20, 0], 0.1, 0.2);
    expect(pts.length).toBe((MAX_SUBDIVISION_POINTS + 1) * 3);
  });

  it('imports the file with the moved point', async () => {
    const tc12 = readFileSync(path.join(OCX_SAMPLES, 'AVEVA-TR03_TC12.3docx'), 'utf8');
    const at = tc12.indexOf('<ocx:EndPoint coordinates="125 0 0"', tc12.indexOf('name="D250"'));
    expect(at).toBeGreaterThan(0);
    const doc = `${tc12.slice(0, at)}<ocx:EndPoint coordinates="-125 99999999999999999999 0"${tc12.slice(at + '<ocx:EndPoint coordinates="125 0 0"'.length)}`;
    const r = await run(doc);
    expect(r.objects.length).toBeGreaterThan(0);
  });
});

describe('a curved plate with an absurd control point (was unbounded: the process died growing an array)', () => {
  // Fuzz seed 105703: one NURBS control point of a PROSTEP TC10 surface moved to z = 9e15 m. The plate's
  // outline in the surface's plane then had an edge of ~1e19 mm, densified at the mesh's ~100 mm spacing:
  // more points than an array holds, and V8 aborted the whole process instead of throwing.
  it('densifies a ring into at most MAX_SUBDIVISION_POINTS extra points', () => {
    const ring = [0, 0, 1e19, 0, 1e19, 1, 0, 1];
    expect(densify(ring, 100).length / 2).toBeLessThanOrEqual(MAX_SUBDIVISION_POINTS + 4);
    expect(densify([0, 0, 1000, 0, 1000, 1000, 0, 1000], 100)).toHaveLength(2 * 40);
  });

  it('imports the file with the moved control point', async () => {
    const tc10 = readFileSync(path.join(OCX_SAMPLES, 'PROSTEP-TR03_TC10.3docx'), 'utf8');
    const point = '<ocx:ControlPoint coordinates="35 5.91215 1.4966"';
    const at = tc10.indexOf(point, tc10.indexOf(point) + 1);
    expect(at).toBeGreaterThan(0);
    const doc = `${tc10.slice(0, at)}<ocx:ControlPoint coordinates="35 5.91215 9007199254740993"${tc10.slice(at + point.length)}`;
    const r = await run(doc);
    expect(r.objects.length).toBeGreaterThan(0);
  });
});

describe('a plate outline stretched by absurd numbers over a fine grid (was hours: every boundary cell clipped the whole ring)', () => {
  // Fuzz seeds 105801 (NAPA TC13) and 105955 (PROSTEP TC10): absurd numbers stretched a curved plate's
  // outline to ~10⁹–10¹² mm, densified into 65,000 points, on cells of the real plate's ~100 mm: millions
  // of cells in a column, each clipping the column's strip of the whole ring. The grid is now coarsened
  // so that cells and clip steps stay bounded (region2d.ts gridCell).
  const cols = (w: number, c: number) => Math.max(1, Math.ceil(w / c));

  it('keeps the cell of a real plate and bounds cells and clip steps of an absurd one', () => {
    expect(gridCell(12_000, 3_000, 100, 2_000)).toBe(100);
    for (const [w, h, points] of [
      [13_000, 9.5e11, 65_975],
      [2e9, 800, 65_536],
      [1e12, 1e12, 200],
    ]) {
      const c = gridCell(w, h, 100, points);
      expect(cols(w, c) * cols(h, c)).toBeLessThanOrEqual(MAX_GRID_CELLS);
      expect((cols(w, c) + cols(h, c)) * points).toBeLessThanOrEqual(MAX_GRID_WORK);
    }
  });

  it('still triangulates such a ring exactly (area of the thin 10⁹ mm strip)', () => {
    const L = 1e9,
      W = 800,
      n = 32_768;
    const ring: number[] = [];
    for (let i = 0; i < n; i++) ring.push((i / n) * L, 0);
    for (let i = 0; i < n; i++) ring.push(L - (i / n) * L, W);
    let exact = 0; // shoelace of the ring
    for (let i = 0, j = 2 * n - 1; i < 2 * n; j = i++)
      exact += ring[2 * j] * ring[2 * i + 1] - ring[2 * i] * ring[2 * j + 1];
    exact = Math.abs(exact) / 2;
    const r = triangulateGrid(ring, [], 100);
    expect(r.area / exact).toBeCloseTo(1, 9);
    let sum = 0;
    for (let t = 0; t < r.indices.length; t += 3) {
      const [a, b, c] = [r.indices[t], r.indices[t + 1], r.indices[t + 2]].map((k) => 2 * k);
      const p = r.points;
      sum += ((p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[c] - p[a]) * (p[b + 1] - p[a + 1])) / 2;
    }
    expect(sum / exact).toBeCloseTo(1, 9);
  });

  for (const [seed, base] of [
    [105_801, 'NAPA-TR03_TC13.3docx'],
    [105_955, 'PROSTEP-TR03_TC10.3docx'],
  ] as const)
    it(`fuzz case ${seed} (${base}) ends in a clean import`, async () => {
      // the seed's case, made from its base alone (the mutations draw the same numbers)
      const c = ocxCase(seed, loadBases([base]), { maxGrowBytes: 16 << 20 });
      const out = await runFuzzCase({
        bytes: c.bytes,
        twoPass: seed % 4 !== 0,
        chunkBytes: [256, 4093, 65536, 262144][(seed >>> 2) % 4],
      });
      expect(out).toMatchObject({ kind: 'imported' });
      expect((out as { problem?: string }).problem).toBeUndefined();
    }, 60_000);
});

describe('a knot vector with millions of surplus knots (was quadratic: each trimmed knot sliced and counted the vector)', () => {
  // Fuzz seed 106488: a NAPA M1 KnotVector grown to 16 MB of knots. repairKnots trimmed one end knot at a
  // time, copying the vector and counting the end value's multiplicity over all of it at every step.
  /** The former definition, step by step: the reference the windowed trim must equal. */
  function trimmedReference(knots: number[], nCtrl: number, p: number): number[] | null {
    const want = nCtrl + p + 1;
    let k = [...knots];
    if (k.length < want || p < 1 || nCtrl <= p) return null;
    let front = true;
    const mult = (arr: number[], fromEnd: boolean) => {
      const v = fromEnd ? arr[arr.length - 1] : arr[0];
      return arr.filter((x) => x === v).length;
    };
    while (k.length > want) {
      if (mult(k, true) > p + 1) k = k.slice(0, -1);
      else if (mult(k, false) > p + 1) k = k.slice(1);
      else {
        k = front ? k.slice(1) : k.slice(0, -1);
        front = !front;
      }
    }
    for (let i = 1; i < k.length; i++) if (!(k[i] >= k[i - 1])) return null;
    if (!(k[nCtrl] > k[p])) return null;
    return k;
  }

  it('trims as the step-by-step definition does, on random vectors', () => {
    const rand = rngOf(12345).int;
    const values = [0, 0, 1, 2, 3, Number.NaN, -1, Number.POSITIVE_INFINITY];
    for (let t = 0; t < 3000; t++) {
      const p = 1 + rand(3),
        nCtrl = p + 1 + rand(6);
      const len = nCtrl + p + 1 + rand(8) - 2;
      const k: number[] = [];
      for (let i = 0; i < len; i++) k.push(rand(4) === 0 ? values[rand(values.length)] : (k.at(-1) ?? 0) + rand(2));
      const got = repairKnots(k, nCtrl, p);
      expect(got ? [...got] : null).toEqual(trimmedReference(k, nCtrl, p));
    }
  });

  it('trims 2,000,000 surplus knots at once', () => {
    const k = [0, 0, 0, 0, ...new Array(2_000_000).fill(0), 1, 2, 3, 4, 4, 4, 4];
    expect([...(repairKnots(k, 7, 3) ?? [])]).toEqual([0, 0, 0, 0, 1, 2, 3, 4, 4, 4, 4]);
  });
});

describe('a twisting stiffener trace of absurd length (was unbounded: the process died growing an array)', () => {
  // Fuzz seed 107918: absurd numbers in NAPA M3 gave a twisting profile's trace a length of ~1e16 mm,
  // split into 100 mm steps between its inclinations: more points than an array holds, and V8 aborted
  // the whole process.
  const web = (a: number) => [0, Math.cos(a), Math.sin(a)] as [number, number, number];
  const incl = (x: number, a: number): Inclination => ({ position: [x, 0, 0], web: web(a), flange: null });

  it('splits such a trace into at most MAX_SUBDIVISION_POINTS points, a real one every 100 mm', () => {
    const far = resampleTrace([0, 0, 0, 1e16, 0, 0], [incl(0, 0), incl(1e16, 1)]);
    expect(far.length / 3).toBeLessThanOrEqual(MAX_SUBDIVISION_POINTS + 2);
    const real = resampleTrace([0, 0, 0, 10_000, 0, 0], [incl(0, 0), incl(10_000, 1)]);
    expect(real.length / 3).toBe(101);
  });

  it('fuzz case 107918 (NAPA-OCX_M3) ends in a clean import', async () => {
    const seed = 107_918;
    const c = ocxCase(seed, loadBases(['NAPA-OCX_M3.3docx']), { maxGrowBytes: 16 << 20 });
    const out = await runFuzzCase({ bytes: c.bytes, twoPass: true, chunkBytes: 262144 });
    expect(out).toMatchObject({ kind: 'imported' });
    expect((out as { problem?: string }).problem).toBeUndefined();
  }, 60_000);
});

describe('a stiffener trace of 64,036 copies of one segment (was quadratic: 3 minutes of CPU)', () => {
  // Fuzz seed 109794: a Line3D of an AVEVA TC11 trace duplicated 64,036 times (and a 1 MB attribute),
  // 17.9 MB: chaining the trace scanned every segment for the nearest at each of the 64,036 steps.
  it('fuzz case 109794 (AVEVA-TR03_TC11) imports, looking at a few grid cells and ends per segment', async () => {
    const c = ocxCase(109_794, loadBases(['AVEVA-TR03_TC11.3docx']), { maxGrowBytes: 16 << 20 });
    expect(c.ops).toEqual(['duplicate', 'hugeAttribute']);
    segmentEndsWork.steps = 0;
    const out = await runFuzzCase({ bytes: c.bytes, twoPass: true, chunkBytes: 65536 });
    expect(out).toMatchObject({ kind: 'imported' });
    expect((out as { problem?: string }).problem).toBeUndefined();
    expect(segmentEndsWork.steps).toBeLessThan(50 * 64_036);
  }, 60_000);
});

describe('the fuzz building a case nested 100,000 deep (the harness was quadratic: minutes before the import)', () => {
  // Fuzz seed 109876: 1.4 MB of nesting, then manyAttributes picking an element: the element scan mapped the
  // whole stack of open elements at every end tag. Built now in about a second, the same case as before.
  it('fuzz case 109876 (NAPA-TR03_TC12) is built', () => {
    const c = ocxCase(109_876, loadBases(['NAPA-TR03_TC12.3docx']), { maxGrowBytes: 16 << 20 });
    expect(c.ops).toEqual(['deepNesting', 'manyAttributes', 'cut']);
    expect(c.bytes.length).toBe(559_666);
  });
});

describe('a plate contour of 57,853 copies of one edge (was quadratic: past 120 s of CPU)', () => {
  // Fuzz seed 109929: a Line3D of a plate's OuterContour in AVEVA TC12 duplicated to 57,853 copies (and two
  // absurd numbers), 16.8 MB. Chained, the copies zigzagged along the edge: a ring of 57,853 coincident edges,
  // each chaining step scanning the copies at the shared end and the polygon boolean cutting the holes from
  // that ring. Exact repeats of a segment are now left out before chaining (geometry/repeatedSegments.ts).
  it('fuzz case 109929 (AVEVA-TR03_TC12) imports', async () => {
    const c = ocxCase(109_929, loadBases(['AVEVA-TR03_TC12.3docx']), { maxGrowBytes: 16 << 20 });
    expect(c.ops).toEqual(['absurdNumber', 'absurdNumber', 'duplicate']);
    const out = await runFuzzCase({ bytes: c.bytes, twoPass: true, chunkBytes: 65536 });
    expect(out).toMatchObject({ kind: 'imported' });
    expect((out as { problem?: string }).problem).toBeUndefined();
  }, 60_000);
});
