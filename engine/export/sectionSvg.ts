/**
 * Section drawing → SVG. True millimetres in user units: the viewBox is the drawing's
 * extent plus a 2 % margin, with v flipped (SVG's y grows downwards) so the drawing reads like the
 * model (up is +Z, or +Y for a Z section). One <g> per layer, in drawing order; strokes do not scale
 * (vector-effect) so lines stay visible at any zoom; labels are <text> with their height in mm.
 */
import type { SectionResult } from '../section/types';
import { type DrawingOptions, fmt, sectionDrawing } from './sectionDrawing';

/** Stroke colours per layer prefix. */
const COLORS: ReadonlyArray<[string, string]> = [
  ['GRID', '#9e9e9e'],
  ['COMPARTMENTS', '#4caf50'],
  ['PLATES', '#1a237e'],
  ['SEAMS', '#d32f2f'],
  ['STIFFENERS', '#00796b'],
  ['PILLARS', '#6a1b9a'],
  ['OPENINGS', '#ef6c00'],
  ['HOLES', '#ef6c00'],
  ['CUTOUTS', '#ef6c00'],
  ['NOTCHES', '#ef6c00'],
  ['BRACKETS', '#5d4037'],
  ['CAD', '#0288d1'],
  ['LABELS', '#000000'],
];

/** Stroke colour of a layer. */
export function layerColor(layer: string): string {
  return COLORS.find(([p]) => layer.startsWith(p))?.[1] ?? '#000000';
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** SVG text of the section `s` (UTF-8, standalone document). */
export function sectionToSvg(s: SectionResult, options: DrawingOptions = {}): string {
  const d = sectionDrawing(s, options);
  const [u0, v0, u1, v1] = d.extent;
  const w = Math.max(u1 - u0, 1),
    h = Math.max(v1 - v0, 1);
  const m = Math.max(w, h) * 0.02;
  const vb = [u0 - m, -(v1 + m), w + 2 * m, h + 2 * m].map(fmt).join(' ');
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${vb}" width="${fmt(w + 2 * m)}mm" height="${fmt(h + 2 * m)}mm">`,
    `<title>${esc(`Section ${s.axis}=${fmt(s.coordinate)} mm (${d.axes[0]}, ${d.axes[1]})`)}</title>`,
  ];
  let open: string | null = null;
  for (const p of d.paths) {
    if (p.layer !== open) {
      if (open !== null) out.push('</g>');
      // An XML id holds no spaces; data-layer keeps the layer's name as written ('CAD COMPONENT SECTION').
      out.push(
        `<g id="${esc(p.layer.replace(/\s/g, '_'))}" data-layer="${esc(p.layer)}" fill="none" stroke="${layerColor(p.layer)}">`,
      );
      open = p.layer;
    }
    const pts: string[] = [];
    for (let i = 0; i + 1 < p.points.length; i += 2) pts.push(`${fmt(p.points[i])},${fmt(-p.points[i + 1])}`);
    if (pts.length === 1) {
      out.push(`<circle cx="${fmt(p.points[0])}" cy="${fmt(-p.points[1])}" r="${fmt(Math.max(w, h) * 0.002)}"/>`);
      continue;
    }
    const tag = p.closed ? 'polygon' : 'polyline';
    out.push(`<${tag} points="${pts.join(' ')}" stroke-width="${p.width}" vector-effect="non-scaling-stroke"/>`);
  }
  if (open !== null) out.push('</g>');
  if (d.texts.length) {
    out.push(`<g id="LABELS" fill="${layerColor('LABELS')}" font-family="Open Sans, sans-serif" text-anchor="middle">`);
    for (const t of d.texts)
      out.push(`<text x="${fmt(t.u)}" y="${fmt(-t.v)}" font-size="${fmt(t.height)}">${esc(t.text)}</text>`);
    out.push('</g>');
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
