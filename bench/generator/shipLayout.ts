/**
 * The parametric hull of the bench ship generator: principal dimensions, frame tables, and a plan
 * that yields one panel description at a time (so a 100k-part ship is never held in memory).
 *
 * Coordinates are metres (as NAPA writes OCX): X aft → fore from frame 0, Y to port, Z up from the
 * base line (OCX_GUIDE §2.2). The midship section is a box with a faceted bilge: bottom flat, bilge
 * (BILGE_FACETS planar facets per side), vertical sides, double bottom with floors and girders, a
 * main deck, web frames with brackets, transverse bulkheads, and longitudinal stiffeners.
 */

/** A point or vector [x, y, z], metres. */
export type Vec3 = [number, number, number];

/** Profile names in the XSectionCatalogue (see ocxWriter.ts for their dimensions). */
export type SectionName = 'HP200x10' | 'HP260x11' | 'T400x12+150x15' | 'FB150x12';

/** Material grades in the MaterialCatalogue. */
export type GradeName = 'A' | 'A36' | 'D36';

/** Where a panel or plate lies: a frame-table plane (GridRef) or an explicit plane. */
export type SurfaceDesc = { kind: 'grid'; ref: string } | { kind: 'plane'; origin: Vec3; normal: Vec3 };

export interface PlateDesc {
  kind: 'plate';
  name: string;
  /** Closed planar polygon (first point not repeated), metres. */
  outline: Vec3[];
  thicknessMm: number;
  grade: GradeName;
  /** Own surface for plates that do not lie on the panel's (bilge facets). */
  surface?: SurfaceDesc;
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
  start: Vec3;
  end: Vec3;
  section: SectionName;
  grade: GradeName;
  /** Unit direction of the web (away from the plating). */
  web: Vec3;
}

export interface PanelDesc {
  name: string;
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
}

/** A reference plane of the frame tables: id doubles as display name. */
export interface GridPlane {
  id: string;
  location: number;
  display: boolean;
}

/** Principal dimensions and spacings, metres. */
export interface ShipLayout {
  frames: number;
  frameSpacing: number;
  breadth: number;
  depth: number;
  doubleBottom: number;
  bilgeRadius: number;
  longitudinalSpacing: number;
  /** Girders every this many longitudinal spacings from the centreline. */
  girderEvery: number;
  /** A web frame every this many frames. */
  webFrameEvery: number;
  /** A transverse bulkhead every this many frames (and at both ends). */
  bulkheadEvery: number;
  /** A block (plate length) spans this many frames. */
  blockFrames: number;
}

/** Number of planar facets per bilge. */
export const BILGE_FACETS = 4;

/** Builds the layout for a frame count; the cross-section is fixed, the length grows with frames. */
export function layoutFor(frames: number): ShipLayout {
  return {
    frames,
    frameSpacing: 0.8,
    breadth: 24,
    depth: 14,
    doubleBottom: 1.6,
    bilgeRadius: 2.4,
    longitudinalSpacing: 0.8,
    girderEvery: 4,
    webFrameEvery: 4,
    bulkheadEvery: 32,
    blockFrames: 8,
  };
}

const lo = (k: number) => `LO${k}`;
const fr = (i: number) => `FR${i}`;

/** The X, Y and Z reference planes of the layout (frames FRi, longitudinals LOk, waterlines WLk, named decks). */
export function gridPlanes(l: ShipLayout): { x: GridPlane[]; y: GridPlane[]; z: GridPlane[] } {
  const x = Array.from({ length: l.frames + 1 }, (_, i) => ({ id: fr(i), location: i * l.frameSpacing, display: true }));
  const half = l.breadth / 2;
  const kMax = Math.floor(half / l.longitudinalSpacing - 1e-9);
  const y: GridPlane[] = [];
  for (let k = -kMax; k <= kMax; k++) y.push({ id: lo(k), location: k * l.longitudinalSpacing, display: true });
  y.push({ id: 'SIDE_S', location: -half, display: true }, { id: 'SIDE_P', location: half, display: true });
  const z: GridPlane[] = [];
  for (let k = 0; k <= Math.floor(l.depth); k++) z.push({ id: `WL${k}`, location: k, display: k % 2 === 0 });
  z.push({ id: 'BASE', location: 0, display: false }, { id: 'INNER_BOTTOM', location: l.doubleBottom, display: true }, { id: 'MAIN_DECK', location: l.depth, display: true });
  return { x, y, z };
}

/** Half cross-section polyline of the shell on the port side, from the keel (y=0, z=0) to the deck edge. */
function portShell(l: ShipLayout): { flat: number; bilge: Vec3[]; } {
  const half = l.breadth / 2, r = l.bilgeRadius;
  const flat = half - r;
  const bilge: Vec3[] = [];
  for (let k = 0; k <= BILGE_FACETS; k++) {
    const a = -Math.PI / 2 + (k / BILGE_FACETS) * (Math.PI / 2);
    bilge.push([0, flat + r * Math.cos(a), r + r * Math.sin(a)]);
  }
  return { flat, bilge };
}

const at = (x: number, p: Vec3): Vec3 => [x, p[1], p[2]];
const mirror = (p: Vec3): Vec3 => [p[0], -p[1], p[2]];

/** Splits [a, b] into pieces no longer than `max`, returning the cut positions including a and b. */
function cuts(a: number, b: number, max: number): number[] {
  const n = Math.max(1, Math.ceil((b - a) / max - 1e-9));
  return Array.from({ length: n + 1 }, (_, i) => a + ((b - a) * i) / n);
}

/**
 * Yields the ship's panels in file order, one block at a time. Deterministic: the same layout gives
 * the same panels. `variant(n)` (from the seed) picks among equivalent scantlings.
 */
export function* planPanels(l: ShipLayout, variant: (n: number) => number): Generator<PanelDesc> {
  const s = l.frameSpacing, half = l.breadth / 2, { flat, bilge } = portShell(l);
  const kFlat = Math.floor(flat / l.longitudinalSpacing - 1e-9);
  const kMax = Math.floor(half / l.longitudinalSpacing - 1e-9);
  const blocks = Math.ceil(l.frames / l.blockFrames);
  const shellT = 14 + 2 * variant(3), deckT = 12 + variant(3), innerT = 13;

  for (let b = 0; b < blocks; b++) {
    const f0 = b * l.blockFrames, f1 = Math.min(l.frames, f0 + l.blockFrames);
    const x0 = f0 * s, x1 = f1 * s;
    const limitsX = [fr(f0), fr(f1)];
    const tag = `B${b + 1}`;
    const strip = (name: string, outline: Vec3[], t: number, grade: GradeName, surface?: SurfaceDesc): PlateDesc => ({ kind: 'plate', name, outline, thicknessMm: t, grade, surface });

    // Bottom shell (z = 0), strakes of ≤ 2.6 m, longitudinals on every LO inside the flat.
    const ys = cuts(-flat, flat, 2.6);
    yield {
      name: `BOTTOM-${tag}`, functionType: 'SHELL: Bottom shell', tightness: 'WaterTight', description: 'Bottom shell plating',
      surface: { kind: 'grid', ref: 'BASE' }, limits: [...limitsX, 'LO0'],
      plates: ys.slice(1).map((y, i) => strip(`P:${i + 1}/BOTTOM-${tag}`, [[x0, ys[i], 0], [x1, ys[i], 0], [x1, y, 0], [x0, y, 0]], shellT, 'A36')),
      brackets: [],
      stiffeners: range(-kFlat, kFlat).filter((k) => k % l.girderEvery !== 0).map((k) => stiff(`S:L${k}/BOTTOM-${tag}`, [x0, k * l.longitudinalSpacing, 0], [x1, k * l.longitudinalSpacing, 0], 'HP260x11', 'A36', [0, 0, 1])),
    };

    // Bilges: one panel per side, one plate per facet with its own plane.
    for (const side of [1, -1] as const) {
      const sideName = side > 0 ? 'P' : 'S';
      const pts = bilge.map((p) => (side > 0 ? p : mirror(p)));
      const mid = pts[BILGE_FACETS >> 1];
      yield {
        name: `BILGE-${sideName}-${tag}`, functionType: 'SHELL: Bilge strake', tightness: 'WaterTight', description: 'Bilge plating, planar facets',
        surface: { kind: 'plane', origin: [x0, mid[1], mid[2]], normal: normalise([0, mid[1] - side * flat, mid[2] - l.bilgeRadius]) },
        limits: limitsX,
        plates: pts.slice(1).map((p, i) => {
          const q = pts[i];
          const normal = normalise([0, (p[1] + q[1]) / 2 - side * flat, (p[2] + q[2]) / 2 - l.bilgeRadius]);
          return strip(`P:${i + 1}/BILGE-${sideName}-${tag}`, side > 0 ? [at(x0, q), at(x1, q), at(x1, p), at(x0, p)] : [at(x0, p), at(x1, p), at(x1, q), at(x0, q)], shellT + 1, 'D36', { kind: 'plane', origin: at(x0, q), normal });
        }),
        brackets: [], stiffeners: [],
      };
    }

    // Sides (y = ±B/2): strakes of ≤ 3 m from the bilge top to the deck, side longitudinals every 0.8 m.
    for (const side of [1, -1] as const) {
      const sideName = side > 0 ? 'P' : 'S', y = side * half;
      const zs = cuts(l.bilgeRadius, l.depth, 3);
      const zl = range(1, Math.floor((l.depth - l.bilgeRadius) / l.longitudinalSpacing - 1e-9)).map((k) => l.bilgeRadius + k * l.longitudinalSpacing);
      yield {
        name: `SIDE-${sideName}-${tag}`, functionType: 'SHELL', tightness: 'WaterTight', description: 'Side shell plating',
        surface: { kind: 'grid', ref: side > 0 ? 'SIDE_P' : 'SIDE_S' }, limits: [...limitsX, 'MAIN_DECK'],
        plates: zs.slice(1).map((z, i) => strip(`P:${i + 1}/SIDE-${sideName}-${tag}`, [[x0, y, zs[i]], [x1, y, zs[i]], [x1, y, z], [x0, y, z]], shellT - 1, 'A36')),
        brackets: [],
        stiffeners: zl.map((z, i) => stiff(`S:SL${i + 1}/SIDE-${sideName}-${tag}`, [x0, y, z], [x1, y, z], 'HP200x10', 'A', [0, -side, 0])),
      };
    }

    // Inner bottom (z = hDB) and main deck (z = D).
    for (const [name, z, t, section, web, fn] of [
      ['INNER-BOTTOM', l.doubleBottom, innerT, 'HP200x10', [0, 0, -1], 'DECK: Inner bottom deck'],
      ['MAIN-DECK', l.depth, deckT, 'T400x12+150x15', [0, 0, -1], 'DECK: Strength deck'],
    ] as const) {
      const yEdge = z >= l.bilgeRadius ? half : flat;
      const yc = cuts(-yEdge, yEdge, 3);
      yield {
        name: `${name}-${tag}`, functionType: fn, tightness: 'WaterTight', description: name === 'MAIN-DECK' ? 'Main deck plating' : 'Inner bottom plating',
        surface: { kind: 'grid', ref: name === 'MAIN-DECK' ? 'MAIN_DECK' : 'INNER_BOTTOM' }, limits: limitsX,
        plates: yc.slice(1).map((y, i) => strip(`P:${i + 1}/${name}-${tag}`, [[x0, yc[i], z], [x1, yc[i], z], [x1, y, z], [x0, y, z]], t, name === 'MAIN-DECK' ? 'A36' : 'A')),
        brackets: [],
        stiffeners: range(-(name === 'MAIN-DECK' ? kMax : kFlat), name === 'MAIN-DECK' ? kMax : kFlat)
          .filter((k) => k % l.girderEvery !== 0)
          .filter((k) => name === 'MAIN-DECK' ? k % 2 === 0 : true)
          .map((k) => stiff(`S:L${k}/${name}-${tag}`, [x0, k * l.longitudinalSpacing, z], [x1, k * l.longitudinalSpacing, z], section as SectionName, 'A36', [...web] as Vec3)),
      };
    }

    // Girders: centre girder and side girders in the double bottom, vertical, one plate per block.
    for (let k = -kFlat; k <= kFlat; k++) {
      if (k % l.girderEvery !== 0) continue;
      const y = k * l.longitudinalSpacing;
      yield {
        name: `GIRDER-${lo(k)}-${tag}`, functionType: k === 0 ? 'LONGITUDINAL: Centerline girder' : 'LONGITUDINAL: Side girder', tightness: k === 0 ? 'WaterTight' : 'NonTight',
        description: 'Double bottom girder', surface: { kind: 'grid', ref: lo(k) }, limits: [...limitsX, 'BASE', 'INNER_BOTTOM'],
        plates: [strip(`P:1/GIRDER-${lo(k)}-${tag}`, [[x0, y, 0], [x1, y, 0], [x1, y, l.doubleBottom], [x0, y, l.doubleBottom]], 15, 'A')],
        brackets: [], stiffeners: [],
      };
    }

    // Frames in this block: floors at every frame, web frames with brackets, bulkheads.
    for (let f = f0; f < f1 + (b === blocks - 1 ? 1 : 0); f++) {
      const x = f * s;
      if (f % l.bulkheadEvery === 0 || f === l.frames) {
        yield bulkhead(l, f, x, flat, half, bilge);
        continue;
      }
      if (f === 0) continue;
      // Floor: between girders, z 0..hDB, with a vertical flat bar in each bay.
      const gy = range(-kFlat, kFlat).filter((k) => k % l.girderEvery === 0).map((k) => k * l.longitudinalSpacing);
      const bays = [-flat, ...gy, flat].filter((v, i, a) => i === 0 || v > a[i - 1] + 1e-9);
      yield {
        name: `FLOOR-${fr(f)}`, functionType: 'WEB_FRAME: Floor frame', tightness: 'NonTight', description: 'Double bottom floor',
        surface: { kind: 'grid', ref: fr(f) }, limits: ['BASE', 'INNER_BOTTOM'],
        plates: bays.slice(1).map((y, i) => strip(`P:${i + 1}/FLOOR-${fr(f)}`, [[x, bays[i], 0], [x, y, 0], [x, y, l.doubleBottom], [x, bays[i], l.doubleBottom]], 12, 'A')),
        brackets: [],
        stiffeners: bays.slice(1).map((y, i) => stiff(`S:V${i + 1}/FLOOR-${fr(f)}`, [x, (y + bays[i]) / 2, 0.05], [x, (y + bays[i]) / 2, l.doubleBottom - 0.05], 'FB150x12', 'A', [1, 0, 0])),
      };
      if (f % l.webFrameEvery !== 0) continue;
      // Web frame: a 1.0 m deep web along each side from the bilge to the deck, a deck transverse,
      // and brackets where the side webs meet the deck and the inner bottom.
      const web = 1.0;
      for (const side of [1, -1] as const) {
        const sideName = side > 0 ? 'P' : 'S', y = side * half, yi = side * (half - web);
        yield {
          name: `WEB-${sideName}-${fr(f)}`, functionType: 'WEB_FRAME: Side', tightness: 'NonTight', description: 'Side web frame',
          surface: { kind: 'grid', ref: fr(f) }, limits: [side > 0 ? 'SIDE_P' : 'SIDE_S', 'INNER_BOTTOM', 'MAIN_DECK'],
          plates: [strip(`P:1/WEB-${sideName}-${fr(f)}`, side > 0 ? [[x, yi, l.doubleBottom], [x, y, l.doubleBottom], [x, y, l.depth], [x, yi, l.depth]] : [[x, y, l.doubleBottom], [x, yi, l.doubleBottom], [x, yi, l.depth], [x, y, l.depth]], 12, 'A')],
          brackets: [
            { kind: 'bracket', name: `B:TOP/WEB-${sideName}-${fr(f)}`, outline: [[x, yi, l.depth], [x, yi - side * 0.6, l.depth], [x, yi, l.depth - 0.6]], thicknessMm: 12, grade: 'A', normal: [1, 0, 0] },
            { kind: 'bracket', name: `B:BOT/WEB-${sideName}-${fr(f)}`, outline: [[x, yi, l.doubleBottom], [x, yi - side * 0.6, l.doubleBottom], [x, yi, l.doubleBottom + 0.6]], thicknessMm: 12, grade: 'A', normal: [1, 0, 0] },
          ],
          stiffeners: [stiff(`S:FACE/WEB-${sideName}-${fr(f)}`, [x, yi, l.doubleBottom + 0.6], [x, yi, l.depth - 0.6], 'FB150x12', 'A', [1, 0, 0])],
        };
      }
      yield {
        name: `DECK-TRANS-${fr(f)}`, functionType: 'WEB_FRAME: Deck transverse frame', tightness: 'NonTight', description: 'Deck transverse web',
        surface: { kind: 'grid', ref: fr(f) }, limits: ['MAIN_DECK', 'SIDE_P', 'SIDE_S'],
        plates: [strip(`P:1/DECK-TRANS-${fr(f)}`, [[x, -(half - web), l.depth - 0.8], [x, half - web, l.depth - 0.8], [x, half - web, l.depth], [x, -(half - web), l.depth]], 11, 'A')],
        brackets: [], stiffeners: [stiff(`S:FACE/DECK-TRANS-${fr(f)}`, [x, -(half - web), l.depth - 0.8], [x, half - web, l.depth - 0.8], 'FB150x12', 'A', [0, 0, -1])],
      };
    }
  }
}

/** A transverse watertight bulkhead: the whole section, strakes of ≤ 2.5 m, vertical HP stiffeners. */
function bulkhead(l: ShipLayout, f: number, x: number, flat: number, half: number, bilge: Vec3[]): PanelDesc {
  const name = `TBH-${fr(f)}`;
  const zs = cuts(0, l.depth, 2.5);
  const yAt = (z: number): number => {
    if (z >= l.bilgeRadius) return half;
    for (let i = 1; i < bilge.length; i++) {
      const a = bilge[i - 1], b = bilge[i];
      if (z <= b[2] + 1e-12) return a[1] + ((b[1] - a[1]) * (z - a[2])) / Math.max(b[2] - a[2], 1e-12);
    }
    return half;
  };
  const plates: PlateDesc[] = zs.slice(1).map((z, i) => {
    const z0 = zs[i];
    // The bilge knuckles inside a strake become extra corners so the outline follows the shell.
    const knees = bilge.filter((p) => p[2] > z0 + 1e-9 && p[2] < z - 1e-9).map((p) => p[2]);
    const port: Vec3[] = [z0, ...knees, z].map((zz) => [x, yAt(zz), zz]);
    // Port side upwards, then starboard downwards: a closed outline without repeating the first point.
    return { kind: 'plate', name: `P:${i + 1}/${name}`, outline: [...port, ...[...port].reverse().map(mirror)], thicknessMm: 13, grade: 'A36' };
  });
  const kMax = Math.floor((half - 0.4) / l.longitudinalSpacing);
  return {
    name, functionType: 'TRANSVERSAL_BULKHEAD', tightness: 'WaterTight', description: 'Transverse watertight bulkhead',
    surface: { kind: 'grid', ref: fr(f) }, limits: ['BASE', 'MAIN_DECK', 'SIDE_P', 'SIDE_S'], plates, brackets: [],
    stiffeners: range(-kMax, kMax).filter((k) => k % 2 !== 0).map((k) => stiff(`S:V${k}/${name}`, [x, k * l.longitudinalSpacing, l.doubleBottom], [x, k * l.longitudinalSpacing, l.depth], 'HP260x11', 'A36', [f === 0 ? 1 : -1, 0, 0])),
  };
}

function stiff(name: string, start: Vec3, end: Vec3, section: SectionName, grade: GradeName, web: Vec3): StiffenerDesc {
  return { kind: 'stiffener', name, start, end, section, grade, web };
}

function range(a: number, b: number): number[] {
  return b < a ? [] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/** Unit vector of v. */
export function normalise(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}
