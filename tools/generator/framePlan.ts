/**
 * Transverse structure of the bench ship at each frame between the aft peak and collision bulkheads:
 * watertight bulkheads (the whole section), floors in the double bottom with lightening holes, and
 * web frames (side webs, deck transverses, brackets) that follow the hull section, so they shrink
 * towards the ends. Metres, axes as in hullForm.ts.
 */
import {
  type HullDims,
  type Vec2,
  type Vec3,
  area2,
  clipBox,
  halfBreadthAt,
  sectionAt,
  sectionPolygon,
} from './hullForm';
import {
  type BracketDesc,
  type HoleDesc,
  type HoleShapeName,
  type PanelDesc,
  type PlateDesc,
  type StiffenerDesc,
  GIRDER_EVERY,
  WEB_EVERY,
  cuts,
  doubleSideIntervals,
  fr,
  longitudinalCrossings,
  lowerZ,
  stiff,
} from './shipLayout';

/** Whether [y, z] lies inside the polygon (even–odd rule). */
function inside(poly: Vec2[], p: Vec2): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i],
      b = poly[j];
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) c = !c;
  }
  return c;
}

type Crossing = ReturnType<typeof longitudinalCrossings>[number];

/**
 * Details where longitudinals pass through a transverse plate at x: a collar plate (bracket) at every
 * crossing inside the plate and, on web frames, a flat-bar web stiffener from the longitudinal inwards.
 */
function crossingDetails(
  x: number,
  plate: Vec2[],
  crossings: Crossing[],
  panel: string,
  webStiffeners: boolean,
  out: { brackets: BracketDesc[]; stiffeners: StiffenerDesc[] },
): void {
  let k = 0;
  for (const c of crossings) {
    const [y, z] = c.at,
      [wy, wz] = c.web,
      h = 0.22;
    if (!inside(plate, [y + wy * 0.3, z + wz * 0.3])) continue;
    k++;
    const o: Vec3 = [x, y + wy * h, z + wz * h];
    o[1] -= wz * 0.02;
    o[2] += wy * 0.02;
    out.brackets.push({
      kind: 'bracket',
      name: `B:C${k}/${panel}`,
      outline: [o, [x, o[1] - wz * 0.15, o[2] + wy * 0.15], [x, o[1] - wy * 0.15, o[2] - wz * 0.15]],
      thicknessMm: 10,
      grade: 'A',
      normal: [1, 0, 0],
    });
    if (webStiffeners)
      out.stiffeners.push(
        stiff(
          `S:W${k}/${panel}`,
          [
            [x, y + wy * h, z + wz * h],
            [x, y + wy * (h + 0.5), z + wz * (h + 0.5)],
          ],
          'FB150x12',
          'A',
          [1, 0, 0],
        ),
      );
  }
}

/** Width (along the primary axis) and height of the catalogue holes, m (ocxCatalogue.ts writes the same). */
export const HOLE_SIZES: Record<HoleShapeName, { width: number; height: number }> = {
  LH1200x800: { width: 1.2, height: 0.8 },
  LH800x600: { width: 0.8, height: 0.6 },
  LH600x400: { width: 0.6, height: 0.4 },
  LH400x250: { width: 0.4, height: 0.25 },
  C300: { width: 0.3, height: 0.3 },
};

/** The largest catalogue hole that leaves at least a quarter of the bay on each side, or undefined. */
function holeFor(width: number, height: number): HoleShapeName | undefined {
  return (Object.keys(HOLE_SIZES) as HoleShapeName[]).find(
    (k) => HOLE_SIZES[k].width <= width / 2 && HOLE_SIZES[k].height <= height / 2,
  );
}

const to3 = (x: number, poly: Vec2[]): Vec3[] => poly.map(([y, z]) => [x, y, z]);

/** Area-weighted validity: at least 0.05 m² and 3 corners. */
const usable = (p: Vec2[]) => p.length >= 3 && Math.abs(area2(p)) > 0.05;

/** A catalogue hole in the transverse plane x, centred at (y, z), width along Y. */
const frameHole = (shape: HoleShapeName, x: number, y: number, z: number): HoleDesc => ({
  kind: 'catalogue',
  shape,
  origin: [x, y, z],
  primary: [0, 1, 0],
  secondary: [0, 0, 1],
});

/** Frames fFrom..fTo of a block: bulkheads, floors (when `db`) and web frames. */
export function* framePanels(
  d: HullDims,
  block: number,
  fFrom: number,
  fTo: number,
  db: boolean,
): Generator<PanelDesc> {
  const s = d.frameSpacing,
    bulkheads = new Set([d.aftPeakFrame, ...d.holdBulkheads]),
    ds = doubleSideIntervals(d);
  for (let f = Math.max(fFrom, d.aftPeakFrame); f <= Math.min(fTo, d.collisionFrame); f++) {
    const x = f * s,
      sec = sectionAt(d, x),
      poly = sectionPolygon(sec);
    if (bulkheads.has(f)) {
      yield bulkhead(d, block, f, x, poly);
      continue;
    }
    if (db) yield floor(d, block, f, x, poly);
    if (f % WEB_EVERY !== 0) continue;
    const hDB = d.doubleBottom,
      inDs = ds.some(([a, b]) => x > a && x < b);
    const zBot = Math.max(db ? hDB : 0, sec.zk + sec.r);
    const webD = Math.min(Math.max(0.05 * d.breadth, 0.6), 2),
      dtD = Math.min(Math.max(0.04 * d.breadth, 0.5), 2.5);
    const yIn = inDs ? d.breadth / 2 - d.doubleSide : Math.max(0.3, halfBreadthAt(sec, zBot) - webD);
    const arm = Math.min(0.6, dtD * 0.6, yIn * 0.3),
      crossings = longitudinalCrossings(d, x);
    for (const side of [1, -1] as const) {
      const sn = side > 0 ? 'P' : 'S',
        name = `WEB-${sn}-${fr(f)}`;
      const band =
        side > 0
          ? clipBox(poly, yIn, Infinity, zBot, d.depth - (inDs ? 0 : dtD))
          : clipBox(poly, -Infinity, -yIn, zBot, d.depth - (inDs ? 0 : dtD));
      if (!usable(band)) continue;
      const w = Math.abs(d.breadth / 2 - yIn),
        h = d.depth - zBot,
        hole = inDs ? holeFor(Math.min(w, 2 * w), h / 4) : undefined;
      const holes: HoleDesc[] = [];
      if (hole) for (let k = 1; k <= 3; k++) holes.push(frameHole(hole, x, side * (yIn + w / 2), zBot + (h * k) / 4));
      const yi = side * yIn;
      const brackets: BracketDesc[] = [
        {
          kind: 'bracket',
          name: `B:TOP/${name}`,
          outline: [
            [x, yi, d.depth - dtD],
            [x, yi - side * arm, d.depth - dtD],
            [x, yi, d.depth - dtD - arm],
          ],
          thicknessMm: 12,
          grade: 'A',
          normal: [1, 0, 0],
        },
        {
          kind: 'bracket',
          name: `B:BOT/${name}`,
          outline: [
            [x, yi, zBot],
            [x, yi - side * arm, zBot],
            [x, yi, zBot + arm],
          ],
          thicknessMm: 12,
          grade: 'A',
          normal: [1, 0, 0],
        },
      ];
      const stiffeners: StiffenerDesc[] = [
        stiff(
          `S:FACE/${name}`,
          [
            [x, yi, zBot + arm],
            [x, yi, d.depth - dtD - arm],
          ],
          'FB150x12',
          'A',
          [1, 0, 0],
        ),
      ];
      crossingDetails(x, band, crossings, name, true, { brackets, stiffeners });
      yield {
        name,
        block,
        functionType: 'WEB_FRAME: Side',
        tightness: 'NonTight',
        description: inDs ? 'Double side web' : 'Side web frame',
        surface: { kind: 'grid', ref: fr(f) },
        limits: [side > 0 ? 'SIDE_P' : 'SIDE_S', 'MAIN_DECK'],
        plates: [{ kind: 'plate', name: `P:1/${name}`, outline: to3(x, band), thicknessMm: 12, grade: 'A', holes }],
        brackets,
        stiffeners,
        seams: [],
      };
    }
    const top = clipBox(poly, -yIn, yIn, d.depth - dtD, d.depth);
    if (usable(top)) {
      const name = `DECK-TRANS-${fr(f)}`,
        details = {
          brackets: [] as BracketDesc[],
          stiffeners: [
            stiff(
              `S:FACE/${name}`,
              [
                [x, -yIn, d.depth - dtD],
                [x, yIn, d.depth - dtD],
              ],
              'FB150x12',
              'A',
              [0, 0, -1],
            ),
          ],
        };
      crossingDetails(x, top, crossings, name, true, details);
      yield {
        name,
        block,
        functionType: 'WEB_FRAME: Deck transverse frame',
        tightness: 'NonTight',
        description: 'Deck transverse web',
        surface: { kind: 'grid', ref: fr(f) },
        limits: ['MAIN_DECK', 'SIDE_P', 'SIDE_S'],
        plates: [{ kind: 'plate', name: `P:1/${name}`, outline: to3(x, top), thicknessMm: 11, grade: 'A' }],
        ...details,
        seams: [],
      };
    }
  }
}

/** A floor at frame f: one plate per bay between girders, a flat bar and a lightening hole in each inner bay. */
function floor(d: HullDims, block: number, f: number, x: number, poly: Vec2[]): PanelDesc {
  const sec = sectionAt(d, x),
    hDB = d.doubleBottom,
    g = GIRDER_EVERY * d.longitudinalSpacing,
    fb0 = d.breadth / 2 - d.bilgeRadius;
  const kMax = Math.floor(fb0 / g - 0.05),
    ys = [-Infinity];
  for (let k = -kMax; k <= kMax && k * g <= fb0 - 0.3; k++) if (k * g >= -(fb0 - 0.3)) ys.push(k * g);
  ys.push(Infinity);
  const name = `FLOOR-${fr(f)}`,
    plates: PlateDesc[] = [],
    stiffeners: StiffenerDesc[] = [],
    brackets: BracketDesc[] = [],
    crossings = longitudinalCrossings(d, x);
  for (let i = 0; i + 1 < ys.length; i++) {
    const bay = clipBox(poly, ys[i], ys[i + 1], -Infinity, hDB);
    if (!usable(bay)) continue;
    const holes: HoleDesc[] = [];
    const finite = Number.isFinite(ys[i]) && Number.isFinite(ys[i + 1]);
    if (finite) {
      const y0 = ys[i],
        w = ys[i + 1] - y0,
        zl = Math.max(lowerZ(sec, y0) ?? hDB, lowerZ(sec, y0 + w) ?? hDB),
        h = hDB - zl;
      const shape = h > 0.3 ? holeFor(w, h) : undefined;
      if (shape) holes.push(frameHole(shape, x, y0 + w / 2, zl + h / 2));
      if (h > 0.3)
        stiffeners.push(
          stiff(
            `S:V${i}/${name}`,
            [
              [x, y0 + 0.15 * w, zl + 0.05],
              [x, y0 + 0.15 * w, hDB - 0.05],
            ],
            'FB150x12',
            'A',
            [1, 0, 0],
          ),
        );
    }
    plates.push({
      kind: 'plate',
      name: `P:${plates.length + 1}/${name}`,
      outline: to3(x, bay),
      thicknessMm: 12,
      grade: 'A',
      holes,
    });
    crossingDetails(x, bay, crossings, name, false, { brackets, stiffeners });
  }
  return {
    name,
    block,
    functionType: 'WEB_FRAME: Floor frame',
    tightness: 'NonTight',
    description: 'Double bottom floor',
    surface: { kind: 'grid', ref: fr(f) },
    limits: ['BASE', 'INNER_BOTTOM'],
    plates,
    brackets,
    stiffeners,
    seams: [],
  };
}

/** A watertight transverse bulkhead over the whole section: strakes of ≤ one strake width, vertical stiffeners. */
function bulkhead(d: HullDims, block: number, f: number, x: number, poly: Vec2[]): PanelDesc {
  const sec = sectionAt(d, x),
    name = `TBH-${fr(f)}`,
    zs = cuts(sec.zk, d.depth, d.strakeWidth);
  const plates: PlateDesc[] = [];
  for (let i = 0; i + 1 < zs.length; i++) {
    const strake = clipBox(poly, -Infinity, Infinity, zs[i], zs[i + 1]);
    if (usable(strake))
      plates.push({
        kind: 'plate',
        name: `P:${plates.length + 1}/${name}`,
        outline: to3(x, strake),
        thicknessMm: 13,
        grade: 'A36',
      });
  }
  const seams = zs.slice(1, -1).map((z, i) => {
    const w = halfBreadthAt(sec, z);
    return {
      name: `SH${i + 1}/${name}`,
      trace: [
        [
          [x, -w, z],
          [x, w, z],
        ] as [Vec3, Vec3],
      ],
    };
  });
  const stiffeners: StiffenerDesc[] = [];
  const zLow = Math.max(d.doubleBottom, sec.zk + sec.r),
    wLow = halfBreadthAt(sec, zLow) - 0.3;
  const kMax = Math.floor(wLow / d.longitudinalSpacing);
  for (let k = -kMax; k <= kMax; k++) {
    if (k % 2 === 0) continue;
    const y = k * d.longitudinalSpacing;
    stiffeners.push(
      stiff(
        `S:V${k}/${name}`,
        [
          [x, y, zLow],
          [x, y, d.depth],
        ],
        'HP260x11',
        'A36',
        [f === d.aftPeakFrame ? 1 : -1, 0, 0],
      ),
    );
  }
  const fn =
    f === d.collisionFrame
      ? 'TRANSVERSAL_BULKHEAD: Collision'
      : f === d.aftPeakFrame
        ? 'TRANSVERSAL_BULKHEAD: Aft peak'
        : 'TRANSVERSAL_BULKHEAD';
  return {
    name,
    block,
    functionType: fn,
    tightness: 'WaterTight',
    description: 'Transverse watertight bulkhead',
    surface: { kind: 'grid', ref: fr(f) },
    limits: ['BASE', 'MAIN_DECK', 'SIDE_P', 'SIDE_S'],
    plates,
    brackets: [],
    stiffeners,
    seams,
  };
}
