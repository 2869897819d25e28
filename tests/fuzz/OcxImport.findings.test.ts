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
import { arcSegments, circumArc, MAX_ARC_SEGMENTS } from '../../engine/geometry/curves';
import { importOcx, OcxImportError } from '../../engine/ocx/index';
import { densify, MAX_DENSIFY_POINTS } from '../../engine/ocx/plateMesh';
import { OCX_SAMPLES } from './ocxHarness';

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
  it('cuts such an arc into at most MAX_ARC_SEGMENTS segments', () => {
    expect(arcSegments(5e19, Math.PI, 0.1, 0.2)).toBe(MAX_ARC_SEGMENTS);
    expect(arcSegments(9e15, Math.PI, 0.1, 0.2)).toBe(MAX_ARC_SEGMENTS);
    expect(arcSegments(1000, Math.PI, 0.1, 0.2)).toBeLessThan(200);
    const pts = circumArc([-125, 0, 0], [0, 125, 0], [-125, 1e20, 0], 0.1, 0.2);
    expect(pts.length).toBe((MAX_ARC_SEGMENTS + 1) * 3);
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
  it('densifies a ring into at most MAX_DENSIFY_POINTS extra points', () => {
    const ring = [0, 0, 1e19, 0, 1e19, 1, 0, 1];
    expect(densify(ring, 100).length / 2).toBeLessThanOrEqual(MAX_DENSIFY_POINTS + 4);
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
