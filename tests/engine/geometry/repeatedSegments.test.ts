/**
 * Contour segments repeated point for point are left out before chaining: n copies of an edge used to be
 * chained into a loop zigzagging n times along it (n coincident edges, on which chaining and the polygon
 * boolean took time quadratic in n). A reversed copy is another edge (a slit's other side) and is kept.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainLoops } from '../../../engine/geometry/chainLoops';
import { dropRepeatedSegments } from '../../../engine/geometry/repeatedSegments';
import { importOcx } from '../../../engine/ocx/index';

const OCX = path.resolve(__dirname, '../../../../shared/models/ocx');

describe('repeated contour segments', () => {
  const square = [
    [0, 0, 0, 1000, 0, 0],
    [1000, 0, 0, 1000, 1000, 0],
    [1000, 1000, 0, 0, 1000, 0],
    [0, 1000, 0, 0, 0, 0],
  ];

  it('a square with one edge given 2,000 times chains into the square (4 points), 1,999 repeats counted', () => {
    const segs = [square[0], ...Array.from({ length: 2000 }, () => square[1].slice()), square[2], square[3]];
    const r = chainLoops(segs, 0.01, 1);
    expect(r.repeats).toBe(1999);
    expect(r.loops).toEqual(chainLoops(square, 0.01, 1).loops);
    expect(r.loops[0].length / 3).toBe(4);
  });

  it('keeps reversed copies, copies of another length, segments holding NaN and the array given when none repeats', () => {
    const a = [0, 0, 0, 5, 0, 0];
    const nan = [Number.NaN, 0, 0, 1, 1, 0];
    const longer = [0, 0, 0, 5, 0, 0, 9, 9, 0];
    const segs = [a, [5, 0, 0, 0, 0, 0], longer, nan, nan.slice(), [0, 0, 0, 5, 0, 0], [-0, 0, 0, 5, 0, 0]];
    const r = dropRepeatedSegments(segs);
    expect(r.repeats).toBe(2);
    expect(r.segments).toEqual([a, [5, 0, 0, 0, 0, 0], longer, nan, nan]);
    const none = [a, longer];
    expect(dropRepeatedSegments(none).segments).toBe(none);
  });

  it('a plate whose OuterContour holds one Line3D 2,000 times imports as with it once (meshes byte for byte)', async () => {
    const text = readFileSync(path.join(OCX, 'AVEVA-TR03_TC12.3docx'), 'utf8');
    const from = text.indexOf('<ocx:Line3D', text.indexOf('<ocx:OuterContour>', text.indexOf('<ocx:Plate ')));
    const to = text.indexOf('</ocx:Line3D>', from) + '</ocx:Line3D>'.length;
    expect(from).toBeGreaterThan(0);
    const copied = text.slice(0, to) + text.slice(from, to).repeat(1999) + text.slice(to);
    async function* chunks(t: string): AsyncGenerator<string> {
      for (let i = 0; i < t.length; i += 65536) yield t.slice(i, i + 65536);
    }
    const [plain, repeated] = await Promise.all([importOcx(chunks(text)), importOcx(chunks(copied))]);
    expect(repeated.meshes.length).toBe(plain.meshes.length);
    repeated.meshes.forEach((m, i) => {
      expect(m.positions).toEqual(plain.meshes[i].positions);
      expect(m.indices).toEqual(plain.meshes[i].indices);
    });
    // the same warnings, at lines moved by the copies
    const placeless = (r: typeof plain) =>
      r.warnings.map((w) => ({ code: w.code, part: w.part, message: w.message.replace(/\(line \d+\)/, '') }));
    expect(placeless(repeated)).toEqual(placeless(plain));
  }, 60_000);
});
