/**
 * Bar section polygons in local (u, v) (OCX_GUIDE §5.3.1): u along FlangeDirection, v along WebDirection,
 * bounding box starting at the origin, asymmetric profiles with the back of the web on u = 0 and the
 * flange or bulb toward +u. Dimensions and results in mm. Polygons are counter-clockwise.
 */

/** A section outline: outer polygon and an optional inner polygon (tubes), uv pairs, CCW. */
export interface SectionPolygon {
  outer: number[];
  inner: number[] | null;
  /** Net section area, mm². */
  area: number;
}

/** Section dimensions in mm (missing = not given). Names follow the OCX shape children. */
export interface SectionDims {
  height?: number;
  width?: number;
  webThickness?: number;
  flangeThickness?: number;
  flangeWidth?: number;
  bulbAngle?: number; // radians
  bulbOuterRadius?: number;
  /** Fillet between the web and the bulb's lower flank. */
  bulbInnerRadius?: number;
  /** Radius at the top of the bulb (used for the outer corner when BulbOuterRadius is absent). */
  bulbTopRadius?: number;
  diameter?: number;
  thickness?: number;
  overshoot?: number;
  area?: number; // mm², UserDefinedBarSection
}

/** Writer conventions that change a section's shape (engine/ocx/vendorHabits.ts). */
export interface SectionOptions {
  /**
   * TBar / IBar Height is the web length, flanges outside it (NAPA Steel: the DryWeight of a
   * 200X10X100X12 T is (200·10 + 100·12) mm² × ρ and its CoG 139.75 mm from the trace). The bottom
   * flange of an I then lies below the trace (CoG at Height/2, as NAPA reports it).
   */
  webHeightExcludesFlanges?: boolean;
}

const rect = (u0: number, v0: number, u1: number, v1: number) => [u0, v0, u1, v0, u1, v1, u0, v1];

function ringArea(r: number[]): number {
  let s = 0;
  const n = r.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) s += r[2 * j] * r[2 * i + 1] - r[2 * i] * r[2 * j + 1];
  return s / 2;
}

/**
 * Points on a circular arc. With `closed` (a full circle) the radius is scaled so that the n-gon has the
 * exact area of the circle (section areas and weights stay exact).
 */
function circleRing(
  cu: number,
  cv: number,
  r: number,
  n: number,
  a0 = 0,
  a1 = 2 * Math.PI,
  closed = true,
  exactArea = closed,
): number[] {
  const out: number[] = [];
  if (exactArea) {
    const x = (a1 - a0) / n;
    r *= Math.sqrt(x / Math.sin(x));
  }
  const steps = closed ? n : n + 1;
  for (let i = 0; i < steps; i++) {
    const t = a0 + ((a1 - a0) * i) / n;
    out.push(cu + r * Math.cos(t), cv + r * Math.sin(t));
  }
  return out;
}

function regular(cu: number, cv: number, acrossFlats: number, sides: number): number[] {
  const r = acrossFlats / 2 / Math.cos(Math.PI / sides);
  return circleRing(cu, cv, r, sides, Math.PI / sides, 2 * Math.PI + Math.PI / sides, true, false);
}

/**
 * EN 10067 hot-rolled bulb flats (HP): height h (mm) → [c, bulb area] where c is the bulb's width beyond
 * the web (FlangeWidth = t + c) and the bulb area (mm²) is the tabulated section area minus h·t (the
 * same for every web thickness of a height: the bulb comes from the same roll pass). Source: the EN 10067
 * section tables (e.g. HP200x10 25.66 cm², HP220x12 33.40 cm², HP240x11 34.89 cm², HP260x11 38.71 cm²,
 * HP430x17 102.79 cm²), which agree with the DryWeights NAPA Steel writes (HP200x10 25.62, HP220x12 33.36).
 */
export const HP_BULBS: ReadonlyArray<readonly [number, number, number]> = [
  [60, 13, 68],
  [80, 14, 123],
  [100, 15.5, 182],
  [120, 17, 230],
  [140, 19, 260],
  [160, 22, 340],
  [180, 25, 446],
  [200, 28, 566],
  [220, 31, 700],
  [240, 34, 849],
  [260, 37, 1011],
  [280, 40, 1188],
  [300, 43, 1379],
  [320, 46, 1585],
  [340, 49, 1801],
  [370, 53.5, 2157],
  [400, 58, 2548],
  [430, 62.5, 2969],
];

/** Standard bulb width beyond the web, c (mm), for a bulb flat of height h (EN 10067, interpolated). */
export function hpBulbWidth(h: number): number {
  const t = HP_BULBS;
  if (h <= t[0][0]) return (t[0][1] * h) / t[0][0];
  for (let i = 1; i < t.length; i++)
    if (h <= t[i][0]) return t[i - 1][1] + ((t[i][1] - t[i - 1][1]) * (h - t[i - 1][0])) / (t[i][0] - t[i - 1][0]);
  return 0.15 * h - 2; // c ≈ 0.15·h − 2 mm holds from HP160 to HP430
}

/**
 * Target bulb area beyond the web (mm²) for height h and bulb width c: the EN 10067 figure when (h, c) is
 * a standard size (c within 1.5 mm), else κ(c)·c² with κ = 0.80 − 2.2/c, the fit of the standard bulbs
 * from HP160 to HP430 (within 0.7 % of their bulb areas).
 */
function bulbAreaTarget(h: number, c: number): number {
  for (const [sh, sc, a] of HP_BULBS) if (Math.abs(sh - h) < 0.5 && Math.abs(sc - c) <= 1.5) return a * (c / sc) ** 2;
  return Math.max(0.3, 0.8 - 2.2 / c) * c * c;
}

/**
 * Bulb flat outline (OCX_GUIDE §5.3.1): web [0, tw] × [0, H − hb], a flank rising at the bulb angle α
 * (BulbAngle, default 30°) from (tw, H − hb) to (b, H − r − e), a vertical outer face of height e up to
 * the top outer corner rounded with radius r, the top flat back to (0, H); the corner between web and
 * flank is filleted with BulbInnerRadius when given. b = FlangeWidth (default tw + c with the EN 10067
 * bulb width c of the height).
 *
 * The catalogue's own parameters define the shape when present: r = BulbOuterRadius (else
 * BulbTopRadius), the fillet, α and b. OCX carries no bulb height, so the one free dimension is taken
 * from the standard: e is solved so that the section area equals the EN 10067 area of the size (the area
 * grows by c·e). Without a radius, r itself is solved to that area (e = 0). Either way the table only
 * fills what the catalogue leaves open; it never overrides a given dimension.
 */
function bulbFlat(H: number, tw: number, d: SectionDims): number[] {
  const b = d.flangeWidth && d.flangeWidth > tw ? d.flangeWidth : tw + hpBulbWidth(H);
  const c = b - tw;
  const alpha = d.bulbAngle && d.bulbAngle > 0 && d.bulbAngle < Math.PI / 2 ? d.bulbAngle : Math.PI / 6;
  const rMax = Math.min(c * 0.9, H / 4);
  const hbMax = H * 0.6;
  const ri = d.bulbInnerRadius && d.bulbInnerRadius > 0 ? d.bulbInnerRadius : 0;
  const ring = (r: number, e: number) => {
    const hb = Math.min(c * Math.tan(alpha) + r + e, hbMax);
    const out = [0, 0, tw, 0];
    const theta = Math.PI / 2 - alpha; // the turn from the web face into the flank
    const L = Math.min(ri * Math.tan(theta / 2), (H - hb) / 2, c / Math.cos(alpha) / 2);
    if (L > 0) {
      const rf = L / Math.tan(theta / 2);
      const fillet = circleRing(tw + rf, H - hb - L, rf, 6, Math.PI, Math.PI / 2 + alpha, false, false);
      out.push(...fillet);
    } else out.push(tw, H - hb);
    out.push(b, Math.max(H - r - e, H - hb));
    const arc = circleRing(b - r, H - r, r, 6, 0, Math.PI / 2, false);
    for (let i = 2; i < arc.length; i += 2) out.push(arc[i], arc[i + 1]);
    out.push(0, H);
    return out;
  };
  const target = H * tw + bulbAreaTarget(H, c);
  const given = d.bulbOuterRadius && d.bulbOuterRadius > 0 ? d.bulbOuterRadius : d.bulbTopRadius;
  if (given && given > 0) {
    const r = Math.min(given, rMax);
    const eMax = Math.max(0, hbMax - c * Math.tan(alpha) - r);
    const e = Math.min(eMax, Math.max(0, (target - Math.abs(ringArea(ring(r, 0)))) / c));
    return ring(r, e);
  }
  // the bulb area grows monotonically with r on [0, rMax]: bisection to the target
  let lo = 0,
    hi = rMax;
  if (Math.abs(ringArea(ring(hi, 0))) <= target) return ring(hi, 0);
  if (Math.abs(ringArea(ring(lo, 0))) >= target) return ring(lo, 0);
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (Math.abs(ringArea(ring(mid, 0))) < target) lo = mid;
    else hi = mid;
  }
  return ring((lo + hi) / 2, 0);
}

/**
 * Builds the polygon of a bar section kind (OCX shape element local name: FlatBar, BulbFlat, LBar, LBarOW,
 * LBarOF, TBar, IBar, UBar, ZBar, Tube, RectangularTube, RoundBar, SquareBar, HexagonBar, OctagonBar,
 * HalfRoundBar, UserDefinedBarSection).
 * @throws Error naming the kind and the missing dimension when a required dimension is absent or ≤ 0.
 */
export function sectionPolygon(kind: string, d: SectionDims, opts: SectionOptions = {}): SectionPolygon {
  const need = (name: keyof SectionDims): number => {
    const v = d[name];
    if (v === undefined || !(v > 0)) throw new Error(`${kind} section needs a positive ${name}`);
    return v;
  };
  let outer: number[];
  let inner: number[] | null = null;
  switch (kind) {
    case 'FlatBar':
      outer = rect(0, 0, need('width'), need('height'));
      break;
    case 'BulbFlat': {
      outer = bulbFlat(need('height'), d.webThickness ?? d.width ?? need('webThickness'), d);
      break;
    }
    case 'LBar':
    case 'LBarOW':
    case 'LBarOF': {
      const H = need('height'),
        W = need('width'),
        tw = need('webThickness'),
        tf = need('flangeThickness');
      const o = d.overshoot ?? 0;
      if (kind === 'LBarOF') outer = [o, 0, o + tw, 0, o + tw, H - tf, W, H - tf, W, H, 0, H, 0, H - tf, o, H - tf];
      else if (kind === 'LBarOW') outer = [0, 0, tw, 0, tw, H - tf, W, H - tf, W, H, tw, H, tw, H + o, 0, H + o];
      else outer = [0, 0, tw, 0, tw, H - tf, W, H - tf, W, H, 0, H];
      break;
    }
    case 'TBar': {
      const H = need('height'),
        W = need('width'),
        tw = need('webThickness'),
        tf = need('flangeThickness');
      const a = (W - tw) / 2,
        b = (W + tw) / 2;
      const top = opts.webHeightExcludesFlanges ? H + tf : H;
      outer = [a, 0, b, 0, b, top - tf, W, top - tf, W, top, 0, top, 0, top - tf, a, top - tf];
      break;
    }
    case 'IBar': {
      const H = need('height'),
        W = need('width'),
        tw = need('webThickness'),
        tf = need('flangeThickness');
      const a = (W - tw) / 2,
        b = (W + tw) / 2;
      const lo = opts.webHeightExcludesFlanges ? -tf : 0,
        hi = opts.webHeightExcludesFlanges ? H + tf : H;
      outer = [
        0,
        lo,
        W,
        lo,
        W,
        lo + tf,
        b,
        lo + tf,
        b,
        hi - tf,
        W,
        hi - tf,
        W,
        hi,
        0,
        hi,
        0,
        hi - tf,
        a,
        hi - tf,
        a,
        lo + tf,
        0,
        lo + tf,
      ];
      break;
    }
    case 'UBar': {
      const H = need('height'),
        W = need('width'),
        tw = need('webThickness'),
        tf = need('flangeThickness');
      outer = [0, 0, W, 0, W, tf, tw, tf, tw, H - tf, W, H - tf, W, H, 0, H];
      break;
    }
    case 'ZBar': {
      const H = need('height'),
        W = need('width'),
        tw = need('webThickness'),
        tf = need('flangeThickness');
      outer = [-W + tw, 0, tw, 0, tw, H - tf, W, H - tf, W, H, 0, H, 0, tf, -W + tw, tf];
      break;
    }
    case 'Tube': {
      const D = d.diameter ?? need('height'),
        t = need('thickness');
      outer = circleRing(D / 2, D / 2, D / 2, 24);
      inner = D / 2 - t > 0 ? circleRing(D / 2, D / 2, D / 2 - t, 24) : null;
      break;
    }
    case 'RectangularTube': {
      const H = need('height'),
        W = need('width'),
        t = need('thickness');
      outer = rect(0, 0, W, H);
      inner = W > 2 * t && H > 2 * t ? rect(t, t, W - t, H - t) : null;
      break;
    }
    case 'RoundBar': {
      const D = d.diameter ?? need('height');
      outer = circleRing(D / 2, D / 2, D / 2, 24);
      break;
    }
    case 'SquareBar': {
      const H = need('height');
      outer = rect(0, 0, H, H);
      break;
    }
    case 'HexagonBar':
      outer = regular(need('height') / 2, need('height') / 2, need('height'), 6);
      break;
    case 'OctagonBar':
      outer = regular(need('height') / 2, need('height') / 2, need('height'), 8);
      break;
    case 'HalfRoundBar': {
      const D = d.diameter ?? d.width ?? need('height') * 2;
      outer = circleRing(D / 2, 0, D / 2, 48, 0, Math.PI, false);
      break;
    }
    case 'UserDefinedBarSection': {
      const s = Math.sqrt(need('area'));
      outer = rect(0, 0, s, s);
      break;
    }
    default:
      throw new Error(`Unsupported bar section kind ${kind}`);
  }
  const area = Math.abs(ringArea(outer)) - (inner ? Math.abs(ringArea(inner)) : 0);
  return { outer, inner, area };
}
