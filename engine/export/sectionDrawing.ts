/**
 * A section result flattened into a 2D drawing, shared by the SVG and DXF writers.
 * The drawing plane's axes: an X section is drawn in (Y, Z), a Y section in (X, Z), a Z section in
 * (X, Y); coordinates stay true millimetres. Entities come in drawing order (viewer.md §4: grid,
 * compartments, structures, CAD components, annotations) and are then stably sorted by the draw
 * priorities of viewer.md §9 so higher priorities paint on top. One layer per entity class and relation.
 */
import {
  type PolylineLike,
  type SectionAxis,
  type SectionRelation,
  type SectionResult,
  STEEL_CLASSES,
  SECTION_RELATIONS,
  axisIndex,
  drawPriority,
} from '../section/types';

/** The layer of CAD component curves: the spec's object type CAD COMPONENT SECTION (viewer.md §3). */
export const CAD_SECTION_LAYER = 'CAD COMPONENT SECTION';

/** One polyline of the drawing, 2D (u v)*, mm. */
export interface DrawingPath {
  layer: string;
  points: number[];
  closed: boolean;
  priority: number;
  /** Stroke width: viewer.md §9 grid widths (main 0.5, aux 0.25); 1 for everything else. */
  width: number;
}

/** A text label at (u, v), mm, with its height in mm. */
export interface DrawingText {
  layer: string;
  u: number;
  v: number;
  height: number;
  text: string;
}

/** The flattened drawing. */
export interface SectionDrawing {
  axis: SectionAxis;
  coordinate: number;
  /** Names of the drawing axes, e.g. ['Y', 'Z'] for an X section. */
  axes: [string, string];
  paths: DrawingPath[];
  texts: DrawingText[];
  /** [minU, minV, maxU, maxV], mm; zeros for an empty drawing. */
  extent: [number, number, number, number];
  /** Layers in first-use order. */
  layers: string[];
}

/** Options: label text height (mm, default 200 = viewer.md §9 default text height); labels on/off. */
export interface DrawingOptions {
  textHeight?: number;
  labels?: boolean;
}

/** Layer name of a steel class and relation, e.g. 'PLATES_INTERSECTED', 'STIFFENERS_CONNECTING_NEGATIVE'. */
export function steelLayer(cls: string, rel: SectionRelation): string {
  return `${cls}_${rel.replace(/[A-Z]/g, (c) => `_${c}`)}`.toUpperCase();
}

/** The (u, v) axis indices of a section axis. */
export function planeAxes(axis: SectionAxis): [number, number] {
  const k = axisIndex(axis);
  return k === 0 ? [1, 2] : k === 1 ? [0, 2] : [0, 1];
}

/** Flattens `s` into a 2D drawing (see the file comment). */
export function sectionDrawing(s: SectionResult, options: DrawingOptions = {}): SectionDrawing {
  const [iu, iv] = planeAxes(s.axis);
  const names = ['X', 'Y', 'Z'];
  const paths: DrawingPath[] = [];
  const texts: DrawingText[] = [];
  const layers: string[] = [];
  const use = (l: string) => {
    if (!layers.includes(l)) layers.push(l);
  };
  const flat = (pts: ArrayLike<number>): number[] => {
    const out: number[] = [];
    for (let i = 0; i + 2 < pts.length; i += 3) out.push(pts[i + iu], pts[i + iv]);
    return out;
  };
  const add = (layer: string, c: PolylineLike, priority: number, width = 1) => {
    use(layer);
    paths.push({ layer, points: flat(c.points), closed: c.closed, priority, width });
  };
  for (const g of s.grid)
    add(g.main ? 'GRID_MAIN' : 'GRID_AUX', { points: g.points, closed: false }, drawPriority('grid'), g.width);
  for (const c of s.compartments) for (const cv of c.curves) add('COMPARTMENTS', cv, drawPriority('compartments'));
  for (const cls of STEEL_CLASSES)
    for (const rel of SECTION_RELATIONS)
      for (const o of s.steel[cls][rel]) {
        for (const cv of o.curves) add(steelLayer(cls, rel), cv, drawPriority(cls, rel));
        if (o.centerline && o.centerline.length >= 6)
          add('PILLARS_CENTERLINE', { points: o.centerline, closed: false }, drawPriority('pillars'));
      }
  for (const c of s.cadComponents) for (const cv of c.curves) add(CAD_SECTION_LAYER, cv, drawPriority('cadComponents'));
  if (options.labels ?? true) {
    const h = options.textHeight ?? 200;
    for (const o of s.steel.plates.intersected) {
      if (!o.label || !o.curves.length) continue;
      const p = flat(o.curves[0].points);
      let u = 0,
        v = 0;
      for (let i = 0; i < p.length; i += 2) {
        u += p[i];
        v += p[i + 1];
      }
      use('LABELS');
      texts.push({ layer: 'LABELS', u: u / (p.length / 2), v: v / (p.length / 2), height: h, text: o.label });
    }
  }
  // Stable sort by priority: lower priorities first so higher ones paint on top.
  const ordered = paths
    .map((p, i) => [p, i] as const)
    .sort((a, b) => a[0].priority - b[0].priority || a[1] - b[1])
    .map((x) => x[0]);
  const ext: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of ordered)
    for (let i = 0; i + 1 < p.points.length; i += 2) {
      ext[0] = Math.min(ext[0], p.points[i]);
      ext[1] = Math.min(ext[1], p.points[i + 1]);
      ext[2] = Math.max(ext[2], p.points[i]);
      ext[3] = Math.max(ext[3], p.points[i + 1]);
    }
  for (const t of texts) {
    ext[0] = Math.min(ext[0], t.u);
    ext[1] = Math.min(ext[1], t.v);
    ext[2] = Math.max(ext[2], t.u);
    ext[3] = Math.max(ext[3], t.v + t.height);
  }
  const extent: [number, number, number, number] = Number.isFinite(ext[0]) ? ext : [0, 0, 0, 0];
  return {
    axis: s.axis,
    coordinate: s.coordinate,
    axes: [names[iu], names[iv]],
    paths: ordered,
    texts,
    extent,
    layers,
  };
}

/** A number for a drawing file: at most 4 decimals, no exponent, no '-0'. */
export function fmt(n: number): string {
  const r = Math.round(n * 1e4) / 1e4;
  return Object.is(r, -0) ? '0' : String(r);
}
