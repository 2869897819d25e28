/**
 * Analytic curve kernels (OCX_GUIDE §4.1 CircumArc3D/Circle3D/Ellipse3D), vector helpers and polyline
 * measures; the §4.2 loop builder is chainLoops.ts. Polylines are plain number arrays of xyz triplets in
 * the caller's unit (the importer: mm).
 */

export type Vec3 = [number, number, number];

export const sub = (a: ArrayLike<number>, b: ArrayLike<number>): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a: ArrayLike<number>, b: ArrayLike<number>): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: ArrayLike<number>, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: ArrayLike<number>, b: ArrayLike<number>): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
/**
 * Math.hypot(x, y, z) bit for bit (V8's algorithm: scale by the largest magnitude, Kahan-compensated
 * sum of squares, sqrt × max; NaN and ±Infinity as Math.hypot) without its per-call allocation of the
 * arguments (Math.hypot with 3 arguments allocates on every call in V8, ~60 MB of
 * garbage per 10k-part import). Results are identical, so meshes and properties do not change.
 */
export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x),
    ay = Math.abs(y),
    az = Math.abs(z);
  if (x !== x || y !== y || z !== z) return ax === Infinity || ay === Infinity || az === Infinity ? Infinity : NaN;
  let max = Math.max(ax, ay);
  if (az > max) max = az;
  if (max === Infinity) return Infinity;
  if (max === 0) return 0;
  let n = ax / max,
    sum = n * n,
    comp = sum - n * n; // first Kahan step from sum = 0, comp = 0
  n = ay / max;
  let s = n * n - comp,
    pre = sum + s;
  comp = pre - sum - s;
  sum = pre;
  n = az / max;
  s = n * n - comp;
  pre = sum + s;
  sum = pre;
  return Math.sqrt(sum) * max;
}

/**
 * The length of (x, y, z) as √(x² + y² + z²) where that sum neither overflows nor underflows (it is then
 * within an ulp or two of hypot3), else hypot3 itself (NaN, ±Infinity, huge and tiny components as
 * Math.hypot). For the meshing's hot loops — point inversion, surface sampling, welding, curve
 * subdivision — where hypot3's divisions and compensated sum cost more than the distance is worth.
 */
export function len3(x: number, y: number, z: number): number {
  const s = x * x + y * y + z * z;
  if (s > 1e-290 && s < 1e290) return Math.sqrt(s);
  return hypot3(x, y, z);
}

/** Math.hypot(x, y) bit for bit without allocation (see hypot3). */
export function hypot2(x: number, y: number): number {
  const ax = Math.abs(x),
    ay = Math.abs(y);
  if (x !== x || y !== y) return ax === Infinity || ay === Infinity ? Infinity : NaN;
  const max = Math.max(ax, ay);
  if (max === Infinity) return Infinity;
  if (max === 0) return 0;
  let n = ax / max;
  const sum = n * n;
  const comp = sum - n * n;
  n = ay / max;
  const s = n * n - comp;
  return Math.sqrt(sum + s) * max;
}

export const len = (a: ArrayLike<number>): number => hypot3(a[0], a[1], a[2]);
/** Unit vector of a, or [0, 0, 0] for a zero vector. */
export const normalize = (a: ArrayLike<number>): Vec3 => {
  const l = len(a);
  return l > 0 ? [a[0] / l, a[1] / l, a[2] / l] : [0, 0, 0];
};

/** A unit vector perpendicular to n. */
export function perpendicular(n: ArrayLike<number>): Vec3 {
  const a: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  return normalize(cross(n, a));
}

/**
 * Most points (or segments) one subdivision makes: an arc, a densified ring, a twisting trace. A length or
 * radius far beyond any ship (a mutated or broken file's 1e20 mm) would otherwise ask for more points than an
 * array holds, and V8 aborts the whole process instead of throwing; the cap keeps such a curve to a few MB.
 * Real geometry stays far below it (a 100 m radius at 0.1 mm chord: ~2,300 arc segments).
 */
export const MAX_SUBDIVISION_POINTS = 1 << 16;

/**
 * The step (mm) for subdividing `length` mm at `step`: `step`, or longer when that would make more than
 * MAX_SUBDIVISION_POINTS points.
 */
export function boundedStep(length: number, step: number): number {
  return Math.max(step, length / MAX_SUBDIVISION_POINTS);
}

/**
 * Number of segments for an arc of radius r (mm) spanning sweep radians (chordal + angular tolerance), at
 * least 2 and at most MAX_SUBDIVISION_POINTS; NaN for a NaN input.
 */
export function arcSegments(r: number, sweep: number, chordTol: number, angTolRad: number): number {
  let step = angTolRad;
  if (r > chordTol) step = Math.min(step, 2 * Math.acos(1 - chordTol / r));
  const n = Math.max(2, Math.ceil(Math.abs(sweep) / step - 1e-9));
  return Math.min(MAX_SUBDIVISION_POINTS, n);
}

/**
 * Arc through A, B, C (CircumArc3D): from A through B to C. Collinear points give the line A → C.
 * @returns polyline including both end points.
 */
export function circumArc(A: Vec3, B: Vec3, C: Vec3, chordTol: number, angTolRad: number): number[] {
  const a = sub(B, A),
    b = sub(C, A),
    m = cross(a, b);
  const m2 = dot(m, m);
  if (m2 <= 1e-12 * dot(a, a) * dot(b, b) || m2 === 0) return [...A, ...C];
  const O = add(A, scale(add(scale(cross(b, m), dot(a, a)), scale(cross(m, a), dot(b, b))), 1 / (2 * m2)));
  const r = len(sub(A, O));
  const n = normalize(m),
    e1 = normalize(sub(A, O)),
    e2 = cross(n, e1);
  const theta = (P: Vec3) => {
    const d = sub(P, O);
    let t = Math.atan2(dot(d, e2), dot(d, e1));
    if (t < 0) t += 2 * Math.PI;
    return t;
  };
  let sweep = theta(C);
  if (sweep < 1e-9) sweep = 2 * Math.PI; // A = C: a full circle through B
  return circleArcPoints(O, e1, e2, r, 0, sweep, chordTol, angTolRad);
}

/** Points of a circular arc centre O, basis (e1, e2), radius r, from angle a0 sweeping `sweep` radians. */
export function circleArcPoints(
  O: Vec3,
  e1: Vec3,
  e2: Vec3,
  r: number,
  a0: number,
  sweep: number,
  chordTol: number,
  angTolRad: number,
): number[] {
  const n = arcSegments(r, sweep, chordTol, angTolRad);
  const out: number[] = [];
  for (let i = 0; i <= n; i++) {
    const t = a0 + (sweep * i) / n,
      c = Math.cos(t) * r,
      s = Math.sin(t) * r;
    out.push(O[0] + c * e1[0] + s * e2[0], O[1] + c * e1[1] + s * e2[1], O[2] + c * e1[2] + s * e2[2]);
  }
  return out;
}

/** Full circle (Circle3D): centre, normal, radius; counter-clockwise about the normal, closed (last = first). */
export function circle(center: Vec3, normal: Vec3, r: number, chordTol: number, angTolRad: number): number[] {
  const n = normalize(normal),
    e1 = perpendicular(n),
    e2 = cross(n, e1);
  return circleArcPoints(center, e1, e2, r, 0, 2 * Math.PI, chordTol, Math.min(angTolRad, Math.PI / 16));
}

/** Full ellipse (Ellipse3D) from semi-axes a along majorAxis and b along minorAxis; closed. */
export function ellipse(
  center: Vec3,
  majorAxis: Vec3,
  minorAxis: Vec3,
  a: number,
  b: number,
  chordTol: number,
  angTolRad: number,
): number[] {
  const e1 = normalize(majorAxis),
    e2 = normalize(minorAxis);
  const n = Math.max(32, arcSegments(Math.max(a, b), 2 * Math.PI, chordTol, angTolRad));
  const out: number[] = [];
  for (let i = 0; i <= n; i++) {
    const t = (2 * Math.PI * i) / n,
      c = Math.cos(t) * a,
      s = Math.sin(t) * b;
    out.push(center[0] + c * e1[0] + s * e2[0], center[1] + c * e1[1] + s * e2[1], center[2] + c * e1[2] + s * e2[2]);
  }
  return out;
}

/** Length of a polyline (xyz triplets). */
export function polylineLength(p: ArrayLike<number>): number {
  let s = 0;
  for (let i = 3; i + 2 < p.length; i += 3) s += hypot3(p[i] - p[i - 3], p[i + 1] - p[i - 2], p[i + 2] - p[i - 1]);
  return s;
}

/** Reverses the point order of a polyline (xyz triplets). */
export function reversePolyline(p: number[]): number[] {
  const out: number[] = new Array(p.length);
  for (let i = 0, j = p.length - 3; j >= 0; i += 3, j -= 3) {
    out[i] = p[j];
    out[i + 1] = p[j + 1];
    out[i + 2] = p[j + 2];
  }
  return out;
}

/** Removes consecutive points closer than tol. */
export function dedupe(p: number[], tol: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 2 < p.length; i += 3) {
    const n = out.length;
    if (n >= 3 && hypot3(p[i] - out[n - 3], p[i + 1] - out[n - 2], p[i + 2] - out[n - 1]) <= tol) continue;
    out.push(p[i], p[i + 1], p[i + 2]);
  }
  return out;
}

/** Newell normal of a closed polygon (xyz triplets); its length is twice the polygon's area. */
export function newellNormal(p: ArrayLike<number>): Vec3 {
  let x = 0,
    y = 0,
    z = 0;
  const n = Math.floor(p.length / 3);
  for (let i = 0; i < n; i++) {
    const j = ((i + 1) % n) * 3,
      k = i * 3;
    x += (p[k + 1] - p[j + 1]) * (p[k + 2] + p[j + 2]);
    y += (p[k + 2] - p[j + 2]) * (p[k] + p[j]);
    z += (p[k] - p[j]) * (p[k + 1] + p[j + 1]);
  }
  return [x, y, z];
}
