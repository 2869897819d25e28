/**
 * Section exports: DXF R12 parsed back with a small group-code reader (layers, entity
 * counts, true mm coordinates), SVG parsed with saxes (well-formed, viewBox from the drawing extent).
 */
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { SectionIndex } from '../../../engine/section/SectionIndex';
import { computeSection, emptySteelSection } from '../../../engine/section/section';
import type { SectionResult } from '../../../engine/section/types';
import { sectionToDxf } from '../../../engine/export/sectionDxf';
import { sectionToSvg } from '../../../engine/export/sectionSvg';
import { steelLayer } from '../../../engine/export/sectionDrawing';

/** DXF → sections of entities, each entity a list of [code, value]. */
function readDxf(text: string) {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  expect(lines.length % 2).toBe(0);
  const pairs: [number, string][] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const code = Number(lines[i].trim());
    expect(Number.isInteger(code), `group code at line ${i + 1}`).toBe(true);
    pairs.push([code, lines[i + 1]]);
  }
  const sections: Record<string, [number, string][][]> = {};
  let cur: [number, string][][] | null = null;
  for (let i = 0; i < pairs.length; i++) {
    const [c, v] = pairs[i];
    if (c === 0 && v === 'SECTION') {
      cur = sections[pairs[++i][1]] = [];
      continue;
    }
    if (c === 0 && (v === 'ENDSEC' || v === 'EOF')) {
      cur = null;
      continue;
    }
    if (!cur) continue;
    if (c === 0) cur.push([[c, v]]);
    else if (cur.length) cur[cur.length - 1].push([c, v]);
    else cur.push([[c, v]]);
  }
  expect(pairs.at(-1)).toEqual([0, 'EOF']);
  return sections;
}
const val = (e: [number, string][], code: number) => e.find(([c]) => c === code)?.[1];

/** A hand-made section: one intersected plate (closed 100 × 10 rectangle at y 0..100, z 0..10), one open seam line. */
function handMade(): SectionResult {
  const steel = emptySteelSection('X', 5000);
  steel.plates.intersected.push({
    stid: 'p1',
    object: 0,
    name: 'P1',
    type: 'PLATE',
    relation: 'intersected',
    length: 100,
    thickness: 10,
    label: '100 x 10',
    curves: [{ points: Float64Array.of(5000, 0, 0, 5000, 100, 0, 5000, 100, 10, 5000, 0, 10), closed: true }],
  });
  steel.seams.inSection.push({
    stid: 's1',
    object: 1,
    name: 'S1',
    type: 'SEAM',
    relation: 'inSection',
    curves: [{ points: Float64Array.of(5000, 50, -20, 5000, 50, 30), closed: false }],
  });
  return { axis: 'X', coordinate: 5000, steel, compartments: [], cadComponents: [], grid: [] };
}

describe('DXF R12', () => {
  it('writes header, layers per class and true coordinates', () => {
    const dxf = sectionToDxf(handMade());
    const s = readDxf(dxf);
    expect(val(s.HEADER[0], 1) ?? s.HEADER.flat().find(([c, v]) => c === 1 && v === 'AC1009')?.[1]).toBe('AC1009');
    const layers = s.TABLES.filter((e) => e[0][1] === 'LAYER' && e.length > 2).map((e) => val(e, 2));
    expect(layers).toEqual(['0', 'PLATES_INTERSECTED', 'SEAMS_IN_SECTION', 'LABELS']);
    const ents = s.ENTITIES;
    // Draw priority order (viewer.md §9): the seam (1) first, the intersected plate (1.1) on top, then the label.
    expect(ents.map((e) => e[0][1])).toEqual([
      'LINE',
      'POLYLINE',
      'VERTEX',
      'VERTEX',
      'VERTEX',
      'VERTEX',
      'SEQEND',
      'TEXT',
    ]);
    const poly = ents[1];
    expect(val(poly, 8)).toBe('PLATES_INTERSECTED');
    expect(val(poly, 70)).toBe('1');
    expect(ents.slice(2, 6).map((v) => [Number(val(v, 10)), Number(val(v, 20))])).toEqual([
      [0, 0],
      [100, 0],
      [100, 10],
      [0, 10],
    ]);
    const line = ents[0];
    expect([val(line, 8), val(line, 10), val(line, 20), val(line, 11), val(line, 21)]).toEqual([
      'SEAMS_IN_SECTION',
      '50',
      '-20',
      '50',
      '30',
    ]);
    expect(val(ents[7], 1)).toBe('100 x 10');
    expect(Number(val(ents[7], 40))).toBe(200);
  });

  it('exports a real section with one polyline per curve on the right layers', async () => {
    const r = await importOcxFile(path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx'));
    const s = computeSection(
      { objects: r.objects, properties: r.properties, frames: r.frames, index: SectionIndex.fromMeshes(r.meshes) },
      'X',
      2400,
    );
    const d = readDxf(sectionToDxf(s));
    const polys = d.ENTITIES.filter((e) => e[0][1] === 'POLYLINE' || e[0][1] === 'LINE');
    const count = (layer: string) => polys.filter((e) => val(e, 8) === layer).length;
    expect(count(steelLayer('plates', 'intersected'))).toBe(
      s.steel.plates.intersected.reduce((n, c) => n + c.curves.length, 0),
    );
    expect(count(steelLayer('stiffeners', 'connectingNegative'))).toBe(14);
    expect(count('GRID_MAIN') + count('GRID_AUX')).toBe(s.grid.length);
    // The deck's cut lies at z 4200..4210 and y -3000..3000: its vertices in the drawing's (Y, Z) plane.
    const deck = s.steel.plates.intersected.find((c) => c.name === 'P:P1/DECK')!;
    const i = d.ENTITIES.findIndex(
      (e) =>
        e[0][1] === 'POLYLINE' &&
        val(e, 8) === 'PLATES_INTERSECTED' &&
        Number(val(d.ENTITIES[d.ENTITIES.indexOf(e) + 1], 30)) === 0 &&
        Math.abs(Number(val(d.ENTITIES[d.ENTITIES.indexOf(e) + 1], 20)) - 4205) <= 5,
    );
    expect(i).toBeGreaterThanOrEqual(0);
    const vs: number[][] = [];
    for (let k = i + 1; d.ENTITIES[k][0][1] === 'VERTEX'; k++)
      vs.push([Number(val(d.ENTITIES[k], 10)), Number(val(d.ENTITIES[k], 20))]);
    expect(Math.min(...vs.map((v) => v[0]))).toBeCloseTo(-3000, 0);
    expect(Math.max(...vs.map((v) => v[0]))).toBeCloseTo(3000, 0);
    expect(Math.min(...vs.map((v) => v[1]))).toBeCloseTo(4200, 0);
    expect(Math.max(...vs.map((v) => v[1]))).toBeCloseTo(4210, 0);
    expect(deck.label).toBe('6000 x 10');
  });
});

describe('SVG', () => {
  it('is well-formed XML with the drawing extent (plus 2 % margin, v flipped) as viewBox', () => {
    const svg = sectionToSvg(handMade());
    const p = new SaxesParser();
    let root: { name: string; attributes: Record<string, string> } | null = null;
    const tags: string[] = [];
    p.on('opentag', (t) => {
      root ??= { name: t.name, attributes: t.attributes as Record<string, string> };
      tags.push(t.name);
    });
    p.on('error', (e) => {
      throw e;
    });
    p.write(svg).close();
    expect(root!.name).toBe('svg');
    // Extent u 0..100, v -20..200 (label at v = 5 with height 200 → top 205): w 100, h 225; margin 2 % of 225 = 4.5.
    expect(root!.attributes.viewBox.split(' ').map(Number)).toEqual([-4.5, -209.5, 109, 234]);
    expect(tags.filter((t) => t === 'polygon')).toHaveLength(1);
    expect(tags.filter((t) => t === 'polyline')).toHaveLength(1);
    expect(svg).toContain('>100 x 10</text>');
  });
});
