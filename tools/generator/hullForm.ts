/**
 * The hull form of the bench ship: principal dimensions scaled from the length, the section at each
 * longitudinal position (flat of bottom, bilge arc, flared side up to the deck edge), the raked stem
 * and stern, and polygon helpers for transverse structures and compartments.
 *
 * Coordinates are metres (as NAPA writes OCX): X aft → fore from the aft end, Y to port, Z up from
 * the base line (OCX_GUIDE §2.2). ξ is the longitudinal hull parameter (the frame position); it equals
 * X except in the two end zones (aft of the aft peak bulkhead, fore of the collision bulkhead), where
 * X is compressed towards the raked stern and stem. u ∈ [0, 3] runs round the port half section:
 * [0, 1] flat of bottom from the centreline, [1, 2] bilge arc, [2, 3] side up to the deck edge.
 */

/** A point or vector [x, y, z], metres. */
export type Vec3 = [number, number, number];
/** A point in the section plane [y, z], metres. */
export type Vec2 = [number, number];

/** Principal dimensions and the longitudinal arrangement, metres (frame numbers are integers). */
export interface HullDims {
  frames: number;
  frameSpacing: number;
  length: number;
  breadth: number;
  depth: number;
  draught: number;
  bilgeRadius: number;
  doubleBottom: number;
  /** Width of the double side (wing tanks) where the hull has one; 0 for single-skin ships. */
  doubleSide: number;
  /** Y of the additional longitudinal cargo bulkheads (positive side), [] when none. */
  cargoBulkheadsY: number[];
  /** Heights of the tween decks between the inner bottom and the main deck. */
  tweenDecks: number[];
  longitudinalSpacing: number;
  strakeWidth: number;
  /** End of the aft body (start of the parallel midbody), start of the fore body; ξ, m. */
  midbodyStart: number;
  midbodyEnd: number;
  rakeAft: number;
  rakeFore: number;
  /** Frames of the aft peak bulkhead, engine room fore bulkhead, collision bulkhead. */
  aftPeakFrame: number;
  engineRoomFrame: number;
  collisionFrame: number;
  /** Frames of the transverse bulkheads between holds (cofferdam ends included), ascending. */
  holdBulkheads: number[];
}

const clamp = (v: number, a: number, b: number) => Math.min(b, Math.max(a, v));

/**
 * Dimensions for a ship of `frames` frames of 0.8 m: breadth grows from L/4.5 (small ships) to L/5.7
 * (330 m), depth 0.52·B, longitudinal spacing 0.7–0.9 m; double side from B ≥ 14 m, two extra cargo
 * bulkheads from B ≥ 36 m, a tween deck per 9 m of depth.
 * @throws Error when frames < 8.
 */
export function hullDims(frames: number): HullDims {
  if (!Number.isInteger(frames) || frames < 8)
    throw new Error(`hullDims: frames must be an integer ≥ 8, got ${frames}`);
  const s = 0.8,
    L = frames * s;
  const B = L / (4.5 + 1.2 * clamp((L - 20) / 310, 0, 1));
  const D = Math.max(2.5, 0.52 * B);
  const hDB = Math.max(0.9, B / 18);
  const nTween = Math.max(0, Math.ceil((D - hDB) / 9) - 1);
  const tweenDecks = Array.from({ length: nTween }, (_, k) => hDB + ((D - hDB) * (k + 1)) / (nTween + 1));
  const aftPeakFrame = Math.max(2, Math.round((0.045 * L) / s));
  const engineRoomFrame = aftPeakFrame + Math.max(3, Math.round((0.13 * L) / s));
  const collisionFrame = frames - Math.max(3, Math.round((0.06 * L) / s));
  const cargoStart = engineRoomFrame + 2;
  const holdLen = Math.max(6, Math.round(Math.max(8, 0.12 * L) / s));
  const nHolds = Math.max(1, Math.round((collisionFrame - cargoStart) / holdLen));
  const holdBulkheads = [engineRoomFrame, cargoStart];
  for (let k = 1; k < nHolds; k++)
    holdBulkheads.push(cargoStart + Math.round(((collisionFrame - cargoStart) * k) / nHolds));
  holdBulkheads.push(collisionFrame);
  return {
    frames,
    frameSpacing: s,
    length: L,
    breadth: B,
    depth: D,
    draught: 0.7 * D,
    bilgeRadius: clamp(0.09 * B, 0.5, 5),
    doubleBottom: hDB,
    doubleSide: B >= 14 ? clamp(B / 22, 1, 3) : 0,
    cargoBulkheadsY: B >= 36 ? [B / 6] : [],
    tweenDecks,
    longitudinalSpacing: 0.7 + 0.2 * clamp((B - 6) / 50, 0, 1),
    strakeWidth: clamp(B / 12, 1.2, 3.2),
    midbodyStart: 0.22 * L,
    midbodyEnd: 0.7 * L,
    rakeAft: Math.min(0.02 * L, aftPeakFrame * s * 0.5),
    rakeFore: Math.min(0.035 * L, (frames - collisionFrame) * s * 0.5),
    aftPeakFrame,
    engineRoomFrame,
    collisionFrame,
    holdBulkheads,
  };
}

/** Half section at a station: keel height, flat-of-bottom half width, bilge radius, deck half breadth, bilge end angle. */
export interface Section {
  xi: number;
  zk: number;
  fb: number;
  r: number;
  hb: number;
  /** Angle (rad) at which the bilge arc meets the straight side; 0 = vertical side. */
  theta: number;
  depth: number;
}

/** The section at ξ (m from the aft end); the hull narrows and the keel rises towards both ends. */
export function sectionAt(d: HullDims, xi: number): Section {
  const half = d.breadth / 2,
    r0 = d.bilgeRadius,
    D = d.depth;
  let hb = half,
    fb = half - r0,
    r = r0,
    zk = 0;
  if (xi > d.midbodyEnd) {
    const t = clamp((xi - d.midbodyEnd) / (d.length - d.midbodyEnd), 0, 1);
    hb = half * Math.max(1 - 0.96 * t ** 1.8, 0.04);
    fb = (half - r0) * (1 - t) ** 1.4;
    r = r0 * (1 - 0.6 * t);
    zk = 0.06 * D * t ** 3;
  } else if (xi < d.midbodyStart) {
    const t = clamp((d.midbodyStart - xi) / d.midbodyStart, 0, 1);
    hb = half * (1 - 0.3 * t * t);
    fb = (half - r0) * (1 - t) ** 1.2;
    r = r0 * (1 - 0.5 * t);
    zk = 0.3 * D * t ** 2.5;
  }
  fb = Math.max(0.02, Math.min(fb, hb - r));
  if (fb + r > hb) r = Math.max(0.02, hb - fb);
  // Tangent from the deck edge to the bilge circle (outer side).
  const cy = fb,
    cz = zk + r,
    dy = hb - cy,
    dz = D - cz,
    dist = Math.hypot(dy, dz);
  const theta = Math.atan2(dz, dy) - Math.acos(clamp(r / dist, -1, 1));
  return { xi, zk, fb, r, hb, theta: clamp(theta, -Math.PI / 2 + 1e-3, Math.PI / 2), depth: D };
}

/** Port half-section point [y, z] at girth parameter u ∈ [0, 3]. */
export function sectionPoint(s: Section, u: number): Vec2 {
  if (u <= 1) return [u * s.fb, s.zk];
  if (u <= 2) {
    const a = -Math.PI / 2 + (u - 1) * (s.theta + Math.PI / 2);
    return [s.fb + s.r * Math.cos(a), s.zk + s.r + s.r * Math.sin(a)];
  }
  const t = u - 2,
    ty = s.fb + s.r * Math.cos(s.theta),
    tz = s.zk + s.r + s.r * Math.sin(s.theta);
  return [ty + t * (s.hb - ty), tz + t * (s.depth - tz)];
}

/** Unit inward normal [y, z] of the port half-section at u (rotated girth tangent). */
export function sectionInward(s: Section, u: number): Vec2 {
  const e = 1e-4,
    a = sectionPoint(s, Math.max(0, u - e)),
    b = sectionPoint(s, Math.min(3, u + e));
  const ty = b[0] - a[0],
    tz = b[1] - a[1],
    l = Math.hypot(ty, tz) || 1;
  return [-tz / l, ty / l];
}

/** X of a hull point at ξ and height z: ξ in the body, compressed towards the raked stern and stem in the end zones. */
export function hullX(d: HullDims, xi: number, z: number, s: Section): number {
  const xa = d.aftPeakFrame * d.frameSpacing,
    xf = d.collisionFrame * d.frameSpacing;
  const h = clamp((z - s.zk) / Math.max(d.depth - s.zk, 1e-6), 0, 1);
  if (xi < xa) {
    const end = d.rakeAft * (1 - h);
    return xa - ((xa - xi) / xa) * (xa - end);
  }
  if (xi > xf) {
    const end = d.length - d.rakeFore * (1 - h);
    return xf + ((xi - xf) / (d.length - xf)) * (end - xf);
  }
  return xi;
}

/** Hull point at (ξ, u) on the port (side = 1) or starboard (side = -1) shell. */
export function hullPoint(d: HullDims, xi: number, u: number, side: 1 | -1, s = sectionAt(d, xi)): Vec3 {
  const [y, z] = sectionPoint(s, u);
  return [hullX(d, xi, z, s), side * y, z];
}

/** Closed full section polygon [y, z] (port up, starboard down), bilge arcs in `arc` segments. */
export function sectionPolygon(s: Section, arc = 8): Vec2[] {
  const port: Vec2[] = [
    [0, s.zk],
    [s.fb, s.zk],
  ];
  for (let k = 1; k <= arc; k++) port.push(sectionPoint(s, 1 + k / arc));
  port.push([s.hb, s.depth], [0, s.depth]);
  const star = port
    .slice(1, -1)
    .reverse()
    .map(([y, z]) => [-y, z] as Vec2);
  return [...port.slice(1), ...star, port[0]].filter(
    (p, i, a) => i === 0 || Math.hypot(p[0] - a[i - 1][0], p[1] - a[i - 1][1]) > 1e-6,
  );
}

/** Half breadth of the section at height z (0 below the keel or above the deck). */
export function halfBreadthAt(s: Section, z: number): number {
  if (z < s.zk - 1e-9 || z > s.depth + 1e-9) return 0;
  let lo = 0,
    hi = 3;
  for (let i = 0; i < 40; i++) {
    const m = (lo + hi) / 2;
    if (sectionPoint(s, m)[1] < z) lo = m;
    else hi = m;
  }
  return z <= s.zk + 1e-9 ? s.fb : sectionPoint(s, (lo + hi) / 2)[0];
}

/** Clips a polygon against the half plane a·y + b·z ≤ c (Sutherland–Hodgman). */
export function clipHalfPlane(poly: Vec2[], a: number, b: number, c: number): Vec2[] {
  const out: Vec2[] = [];
  const f = (p: Vec2) => a * p[0] + b * p[1] - c;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i],
      q = poly[(i + 1) % poly.length],
      fp = f(p),
      fq = f(q);
    if (fp <= 0) out.push(p);
    if ((fp < 0 && fq > 0) || (fp > 0 && fq < 0)) {
      const t = fp / (fp - fq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  return out.filter(
    (p, i, arr) =>
      Math.hypot(p[0] - arr[(i + arr.length - 1) % arr.length][0], p[1] - arr[(i + arr.length - 1) % arr.length][1]) >
      1e-6,
  );
}

/** Clips a polygon to the box y ∈ [y0, y1], z ∈ [z0, z1] (infinite bounds allowed). */
export function clipBox(poly: Vec2[], y0: number, y1: number, z0: number, z1: number): Vec2[] {
  let p = poly;
  if (y0 > -Infinity) p = clipHalfPlane(p, -1, 0, -y0);
  if (y1 < Infinity) p = clipHalfPlane(p, 1, 0, y1);
  if (z0 > -Infinity) p = clipHalfPlane(p, 0, -1, -z0);
  if (z1 < Infinity) p = clipHalfPlane(p, 0, 1, z1);
  return p;
}

/** Signed area of a [y, z] polygon (positive counter-clockwise). */
export function area2(poly: Vec2[]): number {
  let a = 0;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i],
      q = poly[(i + 1) % poly.length];
    a += p[0] * q[1] - q[0] * p[1];
  }
  return a / 2;
}
