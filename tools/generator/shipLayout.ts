/**
 * The structural plan of the bench ship: part descriptions yielded one panel at a time (so a
 * 500k-part ship never lives in memory), grouped in blocks of `BLOCK_FRAMES` frames. This file holds
 * the description types, the reference planes and the longitudinal structure (shell, decks, inner
 * bottom, girders, longitudinal bulkheads); framePlan.ts adds floors, web frames and bulkheads.
 * Metres, axes as in hullForm.ts.
 */
import {
  type HullDims,
  type Section,
  type Vec3,
  halfBreadthAt,
  hullPoint,
  sectionAt,
  sectionInward,
  sectionPoint,
} from './hullForm';
import { type NurbsCurve, type NurbsPatch, columnCurve, rowCurve, shellPatch } from './nurbs';
import { framePanels } from './framePlan';

export type { Vec3 } from './hullForm';

/** Profile names in the XSectionCatalogue (see ocxWriter.ts for their dimensions). */
export type SectionName = 'HP200x10' | 'HP260x11' | 'T400x12+150x15' | 'FB150x12';
/** Material grades in the MaterialCatalogue. */
export type GradeName = 'A' | 'A36' | 'D36';
/** Hole shapes of the HoleShapeCatalogue (ocxCatalogue.ts). */
export type HoleShapeName = 'LH400x250' | 'LH600x400' | 'LH800x600' | 'LH1200x800' | 'C300';

/** Where a panel or plate lies: a frame-table plane (GridRef), an explicit plane, or a NURBS surface. */
export type SurfaceDesc =
  | { kind: 'grid'; ref: string }
  | { kind: 'plane'; origin: Vec3; normal: Vec3 }
  | { kind: 'nurbs'; patch: NurbsPatch };

/** A cut-out: a catalogue shape placed by a transformation (Hole2DContour) or an explicit circle (InnerContour). */
export type HoleDesc =
  | { kind: 'catalogue'; shape: HoleShapeName; origin: Vec3; primary: Vec3; secondary: Vec3 }
  | { kind: 'circle'; centre: Vec3; radius: number; u: Vec3; v: Vec3 };

export interface PlateDesc {
  kind: 'plate';
  name: string;
  /** Closed planar polygon (first point not repeated), metres; absent for curved plates. */
  outline?: Vec3[];
  /** Curved plates: the whole patch is the plate, its boundary the outer contour. */
  patch?: NurbsPatch;
  thicknessMm: number;
  grade: GradeName;
  /** Own surface for plates that do not lie on the panel's. */
  surface?: SurfaceDesc;
  /** Holes cut in this plate (written in the panel's CutBy, subtracted from NetArea and DryWeight). */
  holes?: HoleDesc[];
  /** A fixed @id instead of the next planned one (a plate added by a ship edit, shipEdits.ts). */
  id?: string;
  /** Left out of the file but still numbered, so later parts keep their ids (a ship edit's removal). */
  removed?: boolean;
}

export interface BracketDesc {
  kind: 'bracket';
  name: string;
  /** Triangle: corner, end of arm U, end of arm V. */
  outline: [Vec3, Vec3, Vec3];
  thicknessMm: number;
  grade: GradeName;
  normal: Vec3;
}

export interface StiffenerDesc {
  kind: 'stiffener';
  name: string;
  /** Trace polyline (≥ 2 points), metres. */
  path: Vec3[];
  section: SectionName;
  grade: GradeName;
  /** Unit direction of the web (away from the plating). */
  web: Vec3;
}

/** A seam splitting a panel into plates; its trace is a chain of straight pieces or NURBS pieces. */
export interface SeamDesc {
  name: string;
  trace: (NurbsCurve | [Vec3, Vec3])[];
}

export interface PanelDesc {
  name: string;
  /** Block number (1-based) for the DesignView. */
  block: number;
  /** An OCX functionType enumeration value of the 3.1 schema. */
  functionType: string;
  tightness: 'WaterTight' | 'NonTight' | 'GasTight';
  description: string;
  surface: SurfaceDesc;
  /** Frame-table planes bounding the panel (LimitedBy/GridRef). */
  limits: string[];
  plates: PlateDesc[];
  brackets: BracketDesc[];
  stiffeners: StiffenerDesc[];
  seams: SeamDesc[];
}

/** A reference plane of the frame tables: id doubles as display name. */
export interface GridPlane {
  id: string;
  location: number;
  display: boolean;
}

/** Frames per block (DesignView OccurrenceGroup), per plate length (butt seams) and per web frame. */
export const BLOCK_FRAMES = 8;
export const PLATE_FRAMES = 4;
export const WEB_EVERY = 4;
/** Side girders every this many longitudinal spacings. */
export const GIRDER_EVERY = 4;

export const fr = (i: number) => `FR${i}`;

/** The X, Y and Z reference planes (frames FRi, longitudinals LOk, waterlines WLk, named decks). */
export function gridPlanes(d: HullDims): { x: GridPlane[]; y: GridPlane[]; z: GridPlane[] } {
  const x = Array.from({ length: d.frames + 1 }, (_, i) => ({
    id: fr(i),
    location: i * d.frameSpacing,
    display: i % 5 === 0,
  }));
  const half = d.breadth / 2,
    kMax = Math.floor(half / d.longitudinalSpacing - 1e-9);
  const y: GridPlane[] = [];
  for (let k = -kMax; k <= kMax; k++)
    y.push({ id: `LO${k}`, location: k * d.longitudinalSpacing, display: k % 5 === 0 });
  y.push({ id: 'SIDE_S', location: -half, display: true }, { id: 'SIDE_P', location: half, display: true });
  const z: GridPlane[] = [];
  for (let k = 0; k <= Math.floor(d.depth); k++) z.push({ id: `WL${k}`, location: k, display: k % 2 === 0 });
  z.push(
    { id: 'BASE', location: 0, display: false },
    { id: 'INNER_BOTTOM', location: d.doubleBottom, display: true },
    { id: 'MAIN_DECK', location: d.depth, display: true },
  );
  d.tweenDecks.forEach((h, k) => z.push({ id: `TWEEN_DECK_${k + 1}`, location: h, display: true }));
  return { x, y, z };
}

/** Stations from a to b inclusive, `n` intervals. */
export const stations = (a: number, b: number, n: number) =>
  Array.from({ length: n + 1 }, (_, i) => a + ((b - a) * i) / n);
/** Splits [a, b] into pieces no longer than `max`. */
export const cuts = (a: number, b: number, max: number) => stations(a, b, Math.max(1, Math.ceil((b - a) / max - 1e-9)));

export function stiff(name: string, path: Vec3[], section: SectionName, grade: GradeName, web: Vec3): StiffenerDesc {
  return { kind: 'stiffener', name, path, section, grade, web };
}

/** Whether ξ lies in the parallel midbody, where the section is constant. */
export const inMidbody = (d: HullDims, a: number, b: number) => a >= d.midbodyStart - 1e-9 && b <= d.midbodyEnd + 1e-9;
/** Whether the double bottom exists at ξ (between the peaks and where the keel is well below the inner bottom). */
export const hasDoubleBottom = (d: HullDims, xi: number) =>
  xi >= d.aftPeakFrame * d.frameSpacing - 1e-9 &&
  xi <= d.collisionFrame * d.frameSpacing + 1e-9 &&
  sectionAt(d, xi).zk < d.doubleBottom * 0.5;

/** Whether the whole ξ range [a, b] has a double bottom (inner bottom, girders and floors are written per block). */
export const dbBlock = (d: HullDims, a: number, b: number) => along(d, a, b, 4).every((xi) => hasDoubleBottom(d, xi));

/** ξ intervals of the cargo holds lying wholly in the parallel midbody: there the hull has a double side. */
export function doubleSideIntervals(d: HullDims): [number, number][] {
  if (d.doubleSide <= 0) return [];
  const s = d.frameSpacing,
    out: [number, number][] = [];
  for (let k = 1; k + 1 < d.holdBulkheads.length; k++) {
    const a = d.holdBulkheads[k] * s,
      b = d.holdBulkheads[k + 1] * s;
    if (inMidbody(d, a, b)) out.push([a, b]);
  }
  return out;
}

/** z of the hull bottom at |y| (flat or bilge), or undefined if y is outside the bottom and bilge. */
export function lowerZ(sec: Section, y: number): number | undefined {
  const a = Math.abs(y);
  if (a <= sec.fb) return sec.zk;
  if (a > sectionPoint(sec, 2)[0]) return undefined;
  let lo = 1,
    hi = 2;
  for (let i = 0; i < 40; i++) {
    const m = (lo + hi) / 2;
    if (sectionPoint(sec, m)[0] < a) lo = m;
    else hi = m;
  }
  return sectionPoint(sec, (lo + hi) / 2)[1];
}

/** Girth cuts of the shell regions (bottom, bilge, side) and the u of the shell longitudinals. */
export function shellGirth(d: HullDims) {
  const half = d.breadth / 2,
    r0 = d.bilgeRadius,
    sp = d.longitudinalSpacing,
    fb0 = half - r0,
    side0 = d.depth - r0;
  const nb = Math.max(1, Math.round(fb0 / d.strakeWidth)),
    ns = Math.max(1, Math.round(side0 / d.strakeWidth));
  const bottomL: number[] = [];
  for (let j = 1; j < fb0 / sp - 0.25; j++) if (j % GIRDER_EVERY !== 0) bottomL.push((j * sp) / fb0);
  const nbl = Math.max(0, Math.round((r0 * Math.PI) / 2 / sp) - 1);
  const sideL: number[] = [];
  for (let j = 1; j < side0 / sp - 0.25; j++) sideL.push(2 + (j * sp) / side0);
  return [
    {
      key: 'BOTTOM',
      fn: 'SHELL: Bottom shell',
      cuts: stations(0, 1, nb),
      longs: bottomL,
      section: 'HP260x11' as SectionName,
      grid: 'BASE',
    },
    {
      key: 'BILGE',
      fn: 'SHELL: Bilge strake',
      cuts: [1, 2],
      longs: Array.from({ length: nbl }, (_, k) => 1 + (k + 1) / (nbl + 1)),
      section: 'HP260x11' as SectionName,
      grid: '',
    },
    {
      key: 'SIDE',
      fn: 'SHELL',
      cuts: stations(2, 3, ns),
      longs: sideL,
      section: 'HP200x10' as SectionName,
      grid: 'SIDE',
    },
  ];
}

/** Points along ξ for a trace or outline edge: 2 in the midbody, `n`+1 elsewhere. */
export const along = (d: HullDims, a: number, b: number, n = 4) => (inMidbody(d, a, b) ? [a, b] : stations(a, b, n));

function* shellPanels(d: HullDims, block: number, x0: number, x1: number, shellT: number): Generator<PanelDesc> {
  const s = d.frameSpacing,
    tag = `B${block}`,
    butts = cuts(x0, x1, PLATE_FRAMES * s),
    pieces = cuts(x0, x1, WEB_EVERY * s);
  for (const region of shellGirth(d))
    for (const side of [1, -1] as const) {
      const sn = side > 0 ? 'P' : 'S',
        name = `${region.key}-${sn}-${tag}`;
      const curved = region.key === 'BILGE' || !inMidbody(d, x0, x1);
      const u = region.cuts,
        plates: PlateDesc[] = [],
        seams: SeamDesc[] = [];
      const grade: GradeName = region.key === 'BILGE' ? 'D36' : 'A36',
        t = shellT + (region.key === 'BILGE' ? 1 : region.key === 'SIDE' ? -1 : 0);
      const lseam: SeamDesc['trace'][] = u.slice(1, -1).map(() => []),
        bseam: SeamDesc['trace'][] = butts.slice(1, -1).map(() => []);
      for (let i = 0; i + 1 < butts.length; i++)
        for (let k = 0; k + 1 < u.length; k++) {
          const pname = `P:${i + 1}.${k + 1}/${name}`;
          if (curved) {
            const patch = shellPatch(
              d,
              butts[i],
              butts[i + 1],
              u[k],
              u[k + 1],
              side,
              inMidbody(d, butts[i], butts[i + 1]) ? 2 : 4,
            );
            plates.push({
              kind: 'plate',
              name: pname,
              patch,
              thicknessMm: t,
              grade,
              surface: { kind: 'nurbs', patch },
            });
            if (k > 0) lseam[k - 1].push(columnCurve(patch, side > 0));
            if (i > 0) bseam[i - 1].push(rowCurve(patch, false));
          } else {
            const c = [
              hullPoint(d, butts[i], u[k], side),
              hullPoint(d, butts[i + 1], u[k], side),
              hullPoint(d, butts[i + 1], u[k + 1], side),
              hullPoint(d, butts[i], u[k + 1], side),
            ];
            plates.push({
              kind: 'plate',
              name: pname,
              outline: side > 0 ? c : [c[0], c[3], c[2], c[1]],
              thicknessMm: t,
              grade,
            });
            if (k > 0) lseam[k - 1].push([c[0], c[1]]);
            if (i > 0) bseam[i - 1].push([c[0], c[3]]);
          }
        }
      lseam.forEach((trace, k) => seams.push({ name: `SL${k + 1}/${name}`, trace }));
      bseam.forEach((trace, k) => seams.push({ name: `SB${k + 1}/${name}`, trace }));
      const stiffeners: StiffenerDesc[] = [];
      for (const [j, uu] of region.longs.entries())
        for (let p = 0; p + 1 < pieces.length; p++) {
          const path = along(d, pieces[p], pieces[p + 1]).map((xi) => hullPoint(d, xi, uu, side));
          const n = sectionInward(sectionAt(d, (pieces[p] + pieces[p + 1]) / 2), uu);
          stiffeners.push(stiff(`S:L${j + 1}.${p + 1}/${name}`, path, region.section, 'A36', [0, side * n[0], n[1]]));
        }
      const surface: SurfaceDesc = curved
        ? { kind: 'nurbs', patch: shellPatch(d, x0, x1, u[0], u[u.length - 1], side, inMidbody(d, x0, x1) ? 2 : 6) }
        : { kind: 'grid', ref: region.grid === 'SIDE' ? (side > 0 ? 'SIDE_P' : 'SIDE_S') : region.grid };
      yield {
        name,
        block,
        functionType: region.fn,
        tightness: 'WaterTight',
        description: `${region.key.toLowerCase()} shell plating`,
        surface,
        limits: [fr(Math.round(x0 / s)), fr(Math.round(x1 / s))],
        plates,
        brackets: [],
        stiffeners,
        seams,
      };
    }
}

/** Deck longitudinals as [index, fraction of the deck half width]: every spacing except under girders and 1 m from the edge. */
export function deckLongitudinals(d: HullDims, w0: number): [number, number][] {
  const out: [number, number][] = [],
    kMax = Math.floor(w0 / d.longitudinalSpacing - 0.25);
  for (let j = -kMax; j <= kMax; j++)
    if (j % GIRDER_EVERY !== 0 && Math.abs(j * d.longitudinalSpacing) <= w0 - 1)
      out.push([j, (j * d.longitudinalSpacing) / w0]);
  return out;
}

/** Where the longitudinals of shell and decks cross the transverse plane at ξ: [y, z] and the web direction. */
export function longitudinalCrossings(d: HullDims, xi: number): { at: [number, number]; web: [number, number] }[] {
  const sec = sectionAt(d, xi),
    mid = sectionAt(d, (d.midbodyStart + d.midbodyEnd) / 2),
    out: { at: [number, number]; web: [number, number] }[] = [];
  for (const region of shellGirth(d))
    for (const u of region.longs) {
      const [y, z] = sectionPoint(sec, u),
        n = sectionInward(sec, u);
      out.push({ at: [y, z], web: n }, { at: [-y, z], web: [-n[0], n[1]] });
    }
  const decks: [number, (q: Section) => number, number][] = [[d.depth, (q) => q.hb, -1]];
  if (hasDoubleBottom(d, xi)) decks.push([d.doubleBottom, (q) => halfBreadthAt(q, d.doubleBottom), -1]);
  for (const z of d.tweenDecks) if (sec.zk < z - 0.5) decks.push([z, (q) => halfBreadthAt(q, z), -1]);
  for (const [z, w, dir] of decks)
    for (const [, f] of deckLongitudinals(d, w(mid))) out.push({ at: [f * w(sec), z], web: [0, dir] });
  return out;
}

/** A flat deck (main deck, tween deck, inner bottom) from ξ a to b at height z, as wide as the hull there. */
function deckPanel(
  d: HullDims,
  block: number,
  name: string,
  fn: string,
  grid: string,
  z: number,
  a: number,
  b: number,
  t: number,
  section: SectionName,
  width: (sec: Section) => number,
): PanelDesc {
  const s = d.frameSpacing,
    butts = cuts(a, b, PLATE_FRAMES * s),
    w0 = width(sectionAt(d, (d.midbodyStart + d.midbodyEnd) / 2));
  const n = Math.max(2, Math.round((2 * w0) / d.strakeWidth)),
    fr01 = stations(-1, 1, n);
  const plates: PlateDesc[] = [],
    seams: SeamDesc[] = [];
  const edge = (xs: number[], f: number) => xs.map((xi) => [xi, f * width(sectionAt(d, xi)), z] as Vec3);
  const lseam: [Vec3, Vec3][][] = fr01.slice(1, -1).map(() => []);
  for (let i = 0; i + 1 < butts.length; i++) {
    const xs = along(d, butts[i], butts[i + 1], 3);
    for (let k = 0; k + 1 < fr01.length; k++) {
      const e0 = edge(xs, fr01[k]),
        e1 = edge(xs, fr01[k + 1]);
      plates.push({
        kind: 'plate',
        name: `P:${i + 1}.${k + 1}/${name}`,
        outline: [...e0, ...e1.reverse()],
        thicknessMm: t,
        grade: 'A36',
      });
      if (k > 0) for (let m = 0; m + 1 < e0.length; m++) lseam[k - 1].push([e0[m], e0[m + 1]]);
    }
    if (i > 0) seams.push({ name: `SB${i}/${name}`, trace: [[edge([butts[i]], -1)[0], edge([butts[i]], 1)[0]]] });
  }
  lseam.forEach((trace, k) => seams.push({ name: `SL${k + 1}/${name}`, trace }));
  const stiffeners: StiffenerDesc[] = [];
  const pieces = cuts(a, b, WEB_EVERY * s);
  for (const [j, f] of deckLongitudinals(d, w0))
    for (let p = 0; p + 1 < pieces.length; p++) {
      const xs = along(d, pieces[p], pieces[p + 1], 3);
      // In the ends the deck narrows: drop pieces closer than 0.8 m to the flared shell.
      if (xs.some((xi) => width(sectionAt(d, xi)) * (1 - Math.abs(f)) < 0.8)) continue;
      stiffeners.push(stiff(`S:L${j}.${p + 1}/${name}`, edge(xs, f), section, 'A36', [0, 0, -1]));
    }
  return {
    name,
    block,
    functionType: fn,
    tightness: 'WaterTight',
    description: `${fn.split(': ')[1] ?? fn} plating`,
    surface: { kind: 'grid', ref: grid },
    limits: [fr(Math.round(a / s)), fr(Math.round(b / s))],
    plates,
    brackets: [],
    stiffeners,
    seams,
  };
}

/** Girders of the double bottom and longitudinal bulkheads of the block. */
function* longitudinalPanels(d: HullDims, block: number, x0: number, x1: number): Generator<PanelDesc> {
  const s = d.frameSpacing,
    tag = `B${block}`,
    hDB = d.doubleBottom,
    sp = d.longitudinalSpacing,
    fb0 = d.breadth / 2 - d.bilgeRadius;
  const xs = along(d, x0, x1, 4);
  if (dbBlock(d, x0, x1))
    for (let k = -Math.floor(fb0 / (GIRDER_EVERY * sp) - 0.05); GIRDER_EVERY * sp * k <= fb0 - 0.3; k++) {
      const y = k * GIRDER_EVERY * sp,
        zs = xs.map((xi) => lowerZ(sectionAt(d, xi), y));
      if (zs.some((z) => z === undefined || z > hDB - 0.3)) continue;
      const name = `GIRDER-LO${k * GIRDER_EVERY}-${tag}`;
      const outline: Vec3[] = [...xs.map((xi, i) => [xi, y, zs[i]!] as Vec3), [x1, y, hDB], [x0, y, hDB]];
      const holes: HoleDesc[] = [];
      for (let f = Math.round(x0 / s); f < Math.round(x1 / s); f += 2) {
        const xc = (f + 0.5) * s,
          zl = lowerZ(sectionAt(d, xc), y)!,
          r = Math.min(0.3, 0.2 * (hDB - zl));
        if (r >= 0.1)
          holes.push({ kind: 'circle', centre: [xc, y, (zl + hDB) / 2], radius: r, u: [1, 0, 0], v: [0, 0, 1] });
      }
      yield {
        name,
        block,
        functionType: k === 0 ? 'LONGITUDINAL: Centerline girder' : 'LONGITUDINAL: Side girder',
        tightness: k === 0 ? 'WaterTight' : 'NonTight',
        description: 'Double bottom girder',
        surface: { kind: 'grid', ref: `LO${k * GIRDER_EVERY}` },
        limits: [fr(Math.round(x0 / s)), fr(Math.round(x1 / s)), 'INNER_BOTTOM'],
        plates: [{ kind: 'plate', name: `P:1/${name}`, outline, thicknessMm: k === 0 ? 18 : 15, grade: 'A', holes }],
        brackets: [],
        stiffeners: [],
        seams: [],
      };
    }
  for (const [a0, b0] of doubleSideIntervals(d)) {
    const a = Math.max(a0, x0),
      b = Math.min(b0, x1);
    if (b - a < s / 2) continue;
    const ys = [d.breadth / 2 - d.doubleSide, ...d.cargoBulkheadsY];
    for (const [n, yy] of ys.entries())
      for (const side of [1, -1] as const) {
        const y = side * yy,
          name = `LBH${n}-${side > 0 ? 'P' : 'S'}-${tag}`,
          zs = cuts(hDB, d.depth, d.strakeWidth);
        const plates: PlateDesc[] = zs.slice(1).map((z, i) => ({
          kind: 'plate',
          name: `P:${i + 1}/${name}`,
          outline: [
            [a, y, zs[i]],
            [b, y, zs[i]],
            [b, y, z],
            [a, y, z],
          ],
          thicknessMm: 14,
          grade: 'A36',
        }));
        const seams: SeamDesc[] = zs.slice(1, -1).map((z, i) => ({
          name: `SL${i + 1}/${name}`,
          trace: [
            [
              [a, y, z],
              [b, y, z],
            ],
          ],
        }));
        const stiffeners: StiffenerDesc[] = [];
        const pieces = cuts(a, b, WEB_EVERY * s);
        for (let j = 1; hDB + j * sp < d.depth - 0.3; j++)
          for (let p = 0; p + 1 < pieces.length; p++)
            stiffeners.push(
              stiff(
                `S:H${j}.${p + 1}/${name}`,
                [
                  [pieces[p], y, hDB + j * sp],
                  [pieces[p + 1], y, hDB + j * sp],
                ],
                'HP200x10',
                'A',
                [0, n === 0 ? -side : side, 0],
              ),
            );
        yield {
          name,
          block,
          functionType: n === 0 ? 'SHELL: Inner side shell' : 'LONGITUDINAL: Bulkhead',
          tightness: 'WaterTight',
          description: n === 0 ? 'Inner side (double hull)' : 'Longitudinal cargo bulkhead',
          surface: { kind: 'plane', origin: [a, y, hDB], normal: [0, 1, 0] },
          limits: [fr(Math.round(a / s)), fr(Math.round(b / s)), 'INNER_BOTTOM', 'MAIN_DECK'],
          plates,
          brackets: [],
          stiffeners,
          seams,
        };
      }
  }
}

/**
 * Yields the ship's panels in file order, one block at a time. Deterministic: the same dimensions
 * give the same panels; `variant(n)` (from the seed) picks among equivalent scantlings.
 */
export function* planPanels(d: HullDims, variant: (n: number) => number): Generator<PanelDesc> {
  const s = d.frameSpacing,
    blocks = Math.ceil(d.frames / BLOCK_FRAMES);
  const shellT = Math.round(10 + d.breadth / 6) + 2 * variant(3),
    deckT = Math.round(9 + d.breadth / 7) + variant(3);
  const xa = d.aftPeakFrame * s,
    xf = d.collisionFrame * s;
  for (let b = 0; b < blocks; b++) {
    const f0 = b * BLOCK_FRAMES,
      f1 = Math.min(d.frames, f0 + BLOCK_FRAMES),
      x0 = f0 * s,
      x1 = f1 * s,
      block = b + 1;
    yield* shellPanels(d, block, x0, x1, shellT);
    yield deckPanel(
      d,
      block,
      `MAIN-DECK-B${block}`,
      'DECK: Strength deck',
      'MAIN_DECK',
      d.depth,
      x0,
      x1,
      deckT,
      'T400x12+150x15',
      (sec) => sec.hb,
    );
    const a = Math.max(x0, xa),
      e = Math.min(x1, xf);
    if (e - a > s / 2) {
      for (const [k, z] of d.tweenDecks.entries())
        if (along(d, a, e).every((xi) => sectionAt(d, xi).zk < z - 0.5))
          yield deckPanel(
            d,
            block,
            `TWEEN-DECK${k + 1}-B${block}`,
            'DECK: Tween deck',
            `TWEEN_DECK_${k + 1}`,
            z,
            a,
            e,
            deckT - 2,
            'HP200x10',
            (sec) => halfBreadthAt(sec, z),
          );
      if (dbBlock(d, a, e))
        yield deckPanel(
          d,
          block,
          `INNER-BOTTOM-B${block}`,
          'DECK: Inner bottom deck',
          'INNER_BOTTOM',
          d.doubleBottom,
          a,
          e,
          deckT + 1,
          'HP200x10',
          (sec) => halfBreadthAt(sec, d.doubleBottom),
        );
      yield* longitudinalPanels(d, block, a, e);
    }
    yield* framePanels(d, block, f0, b === blocks - 1 ? f1 : f1 - 1, e - a > s / 2 && dbBlock(d, a, e));
  }
}
