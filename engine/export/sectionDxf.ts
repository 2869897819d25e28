/**
 * Section drawing → DXF R12 ASCII (AC1009), readable by any DXF reader: HEADER
 * ($ACADVER, $EXTMIN, $EXTMAX), TABLES (LTYPE CONTINUOUS; one LAYER per entity class and relation,
 * sectionDrawing.ts), ENTITIES (POLYLINE/VERTEX/SEQEND for polylines — flag 1 when closed —, LINE
 * for two-point open pieces, POINT for single points, TEXT for labels), EOF. Coordinates are true
 * millimetres in the drawing plane (u, v) = (Y, Z) for X sections, (X, Z) for Y, (X, Y) for Z.
 */
import type { SectionResult } from '../section/types';
import { type DrawingOptions, fmt, sectionDrawing } from './sectionDrawing';

/** AutoCAD colour index per layer prefix. */
const ACI: ReadonlyArray<[string, number]> = [
  ['GRID', 8],
  ['COMPARTMENTS', 3],
  ['PLATES', 7],
  ['SEAMS', 1],
  ['STIFFENERS', 4],
  ['PILLARS', 6],
  ['OPENINGS', 30],
  ['HOLES', 30],
  ['CUTOUTS', 30],
  ['NOTCHES', 30],
  ['BRACKETS', 5],
  ['CAD', 140],
  ['LABELS', 7],
];

/** ACI colour of a layer. */
export function layerAci(layer: string): number {
  return ACI.find(([p]) => layer.startsWith(p))?.[1] ?? 7;
}

/** Text safe for an R12 group value: ASCII only, no line breaks. */
const ascii = (s: string) => s.replace(/[\r\n]+/g, ' ').replace(/[^\x20-\x7e]/g, '?');

/** DXF R12 text of the section `s` (CRLF line ends). */
export function sectionToDxf(s: SectionResult, options: DrawingOptions = {}): string {
  const d = sectionDrawing(s, options);
  const o: string[] = [];
  const g = (code: number, value: string | number) =>
    o.push(String(code), typeof value === 'number' ? fmt(value) : value);
  g(0, 'SECTION');
  g(2, 'HEADER');
  g(9, '$ACADVER');
  g(1, 'AC1009');
  g(9, '$EXTMIN');
  g(10, d.extent[0]);
  g(20, d.extent[1]);
  g(30, 0);
  g(9, '$EXTMAX');
  g(10, d.extent[2]);
  g(20, d.extent[3]);
  g(30, 0);
  g(0, 'ENDSEC');

  g(0, 'SECTION');
  g(2, 'TABLES');
  g(0, 'TABLE');
  g(2, 'LTYPE');
  g(70, '1');
  g(0, 'LTYPE');
  g(2, 'CONTINUOUS');
  g(70, '0');
  g(3, 'Solid line');
  g(72, '65');
  g(73, '0');
  g(40, 0);
  g(0, 'ENDTAB');
  g(0, 'TABLE');
  g(2, 'LAYER');
  g(70, String(d.layers.length + 1));
  for (const l of ['0', ...d.layers]) {
    g(0, 'LAYER');
    g(2, ascii(l));
    g(70, '0');
    g(62, String(layerAci(l)));
    g(6, 'CONTINUOUS');
  }
  g(0, 'ENDTAB');
  g(0, 'ENDSEC');

  g(0, 'SECTION');
  g(2, 'ENTITIES');
  for (const p of d.paths) {
    const n = p.points.length / 2;
    if (n === 1) {
      g(0, 'POINT');
      g(8, p.layer);
      g(10, p.points[0]);
      g(20, p.points[1]);
      g(30, 0);
      continue;
    }
    if (n === 2 && !p.closed) {
      g(0, 'LINE');
      g(8, p.layer);
      g(10, p.points[0]);
      g(20, p.points[1]);
      g(30, 0);
      g(11, p.points[2]);
      g(21, p.points[3]);
      g(31, 0);
      continue;
    }
    g(0, 'POLYLINE');
    g(8, p.layer);
    g(66, '1');
    g(10, 0);
    g(20, 0);
    g(30, 0);
    g(70, p.closed ? '1' : '0');
    for (let i = 0; i + 1 < p.points.length; i += 2) {
      g(0, 'VERTEX');
      g(8, p.layer);
      g(10, p.points[i]);
      g(20, p.points[i + 1]);
      g(30, 0);
    }
    g(0, 'SEQEND');
    g(8, p.layer);
  }
  for (const t of d.texts) {
    g(0, 'TEXT');
    g(8, t.layer);
    g(10, t.u);
    g(20, t.v);
    g(30, 0);
    g(40, t.height);
    g(1, ascii(t.text));
    g(72, '1');
    g(11, t.u);
    g(21, t.v);
    g(31, 0);
  }
  g(0, 'ENDSEC');
  g(0, 'EOF');
  return `${o.join('\r\n')}\r\n`;
}
