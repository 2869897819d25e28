/**
 * Geometry habits of other OCX writers, applied to the generator's element trees (dialects.ts). Every
 * rewrite describes the same geometry a different way, so the figures in PhysicalProperties stay exact:
 * - planeAsNurbs: a plate's, bracket's or panel's Plane3D becomes a NURBSSurface spanning the part's
 *   contours (+ 50 mm), degree 1 (bilinear) or degree 2 with a repeated interior knot in U;
 * - refineNurbs: a NURBSSurface gets the knot 0.5 inserted `degree` times in U and V (Boehm), the same
 *   surface with repeated knots and more control points;
 * - reverseContours: the segments of an outer contour's CompositeCurve3D are written end to start, each
 *   segment reversed, and every joint opened by a gap of 0.41 mm (below DistanceTolerance 1 mm);
 * - contourAsNurbs: an outer contour made only of lines becomes one closed NURBS3D of degree 1;
 * - linesAsPolyLines: Line3D segments of contours become PolyLine3D (same StartPoint / EndPoint).
 * Coordinates are metres, as the canonical writer writes them (units are changed after this).
 */
import { type El, attr, descendants, elems, first, local, ocx } from './dialectTree';
import { num } from './ocxWriter';

type V3 = [number, number, number];
const parse = (s: string | undefined): V3 => {
  const v = (s ?? '').trim().split(/\s+/).map(Number);
  return [v[0] ?? 0, v[1] ?? 0, v[2] ?? 0];
};
const fmt = (p: number[]) => `${num(p[0])} ${num(p[1])} ${num(p[2])}`;
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: V3): V3 => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** Fresh ids for elements the rewrites add ("dx1", "dx2", ...), unique next to the writer's "g…" ids. */
export class NewIds {
  private n = 0;
  next(): string {
    return `dx${++this.n}`;
  }
}

const point = (tag: string, p: number[]): El =>
  ocx(tag, [
    ['coordinates', fmt(p)],
    ['unit', 'Um'],
  ]);
const length = (v: number): El =>
  ocx('CurveLength', [
    ['numericvalue', num(v)],
    ['unit', 'Um'],
  ]);
const line = (ids: NewIds, a: V3, b: V3): El =>
  ocx('Line3D', [['id', ids.next()]], [length(Math.hypot(...sub(b, a))), point('StartPoint', a), point('EndPoint', b)]);

/** Every point written in the contours below e (StartPoint, EndPoint, IntermediatePoint, ControlPoint). */
function contourPoints(e: El): V3[] {
  const out: V3[] = [];
  for (const c of [...descendants(e, 'OuterContour')])
    for (const tag of ['StartPoint', 'EndPoint', 'IntermediatePoint', 'ControlPoint'])
      for (const p of descendants(c, tag)) out.push(parse(attr(p, 'coordinates')));
  return out;
}

/** A NURBSSurface element covering the points `pts` on the plane (origin o, unit normal n), u × v = n. */
function planeSurface(ids: NewIds, o: V3, n: V3, pts: V3[], degree: 1 | 2): El {
  const e1 = unit(Math.abs(n[0]) < 0.9 ? cross([1, 0, 0], n) : cross([0, 1, 0], n)),
    e2 = cross(n, e1);
  let [u0, u1, v0, v1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const p of pts) {
    const d = sub(p, o),
      u = dot(d, e1),
      v = dot(d, e2);
    [u0, u1, v0, v1] = [Math.min(u0, u), Math.max(u1, u), Math.min(v0, v), Math.max(v1, v)];
  }
  [u0, u1, v0, v1] = [u0 - 0.05, u1 + 0.05, v0 - 0.05, v1 + 0.05];
  const at = (u: number, v: number): V3 => [0, 1, 2].map((k) => o[k] + u * e1[k] + v * e2[k]) as V3;
  // degree 2 in U: five control points, knots 0 0 0 .5 .5 1 1 1 (the interior knot repeated), spaced unevenly
  const us = degree === 1 ? [u0, u1] : [0, 0.2, 0.5, 0.75, 1].map((f) => u0 + f * (u1 - u0));
  const knotsU = degree === 1 ? [0, 0, 1, 1] : [0, 0, 0, 0.5, 0.5, 1, 1, 1];
  const ctrl: El[] = [];
  for (const u of us)
    for (const v of [v0, v1])
      ctrl.push(
        ocx('ControlPoint', [
          ['coordinates', fmt(at(u, v))],
          ['unit', 'Um'],
          ['weight', '1'],
        ]),
      );
  const c = [at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)];
  const boundary = ocx(
    'CompositeCurve3D',
    [['id', ids.next()]],
    [length(2 * (u1 - u0 + v1 - v0)), ...c.map((p, i) => line(ids, p, c[(i + 1) % 4]))],
  );
  return ocx(
    'NURBSSurface',
    [['id', ids.next()]],
    [
      ocx('FaceBoundaryCurve', [], [boundary]),
      ocx('U_NURBSproperties', [
        ['degree', String(degree)],
        ['numCtrlPts', String(us.length)],
        ['numKnots', String(knotsU.length)],
        ['isRational', 'false'],
      ]),
      ocx('UknotVector', [['value', knotsU.join(' ')]]),
      ocx('V_NURBSproperties', [
        ['degree', '1'],
        ['numCtrlPts', '2'],
        ['numKnots', '4'],
        ['isRational', 'false'],
      ]),
      ocx('VknotVector', [['value', '0 0 1 1']]),
      ocx('ControlPtList', [], ctrl),
    ],
  );
}

/**
 * Replaces the Plane3D of every Plate, Bracket and Panel (UnboundedGeometry) in the tree by a NURBSSurface
 * that spans the part's outer contours (a panel: those of its plates and brackets).
 */
export function planeAsNurbs(root: El, ids: NewIds, degree: 1 | 2): void {
  const visit = (e: El) => {
    const kind = local(e.name);
    if (kind === 'Plate' || kind === 'Bracket' || kind === 'Panel') {
      const ug = first(e, 'UnboundedGeometry'),
        pl = first(ug, 'Plane3D');
      const pts = kind === 'Panel' ? elems(first(e, 'ComposedOf') ?? e).flatMap(contourPoints) : contourPoints(e);
      if (ug && pl && pts.length >= 3) {
        const o = parse(attr(first(pl, 'Origin')!, 'coordinates')),
          n = unit(parse(attr(first(pl, 'Normal')!, 'direction')));
        ug.kids[ug.kids.indexOf(pl)] = planeSurface(ids, o, n, pts, degree);
      }
    }
    for (const k of elems(e)) visit(k);
  };
  visit(root);
}

/** Inserts knot t once into a curve of homogeneous points (Boehm). */
function insertKnot(P: number[][], knots: number[], p: number, t: number): { P: number[][]; knots: number[] } {
  let k = p;
  while (k + 1 < knots.length - p - 1 && knots[k + 1] <= t) k++;
  const Q: number[][] = [];
  for (let i = 0; i <= P.length; i++) {
    if (i <= k - p) Q.push(P[i]);
    else if (i > k) Q.push(P[i - 1]);
    else {
      const a = (t - knots[i]) / (knots[i + p] - knots[i]);
      Q.push(P[i].map((v, c) => (1 - a) * P[i - 1][c] + a * v));
    }
  }
  return { P: Q, knots: [...knots.slice(0, k + 1), t, ...knots.slice(k + 1)] };
}

/** Refines every NURBSSurface in the tree: the knot 0.5 inserted until its multiplicity equals the degree, in U and V. */
export function refineNurbs(root: El): void {
  for (const s of descendants(root, 'NURBSSurface')) {
    const up = first(s, 'U_NURBSproperties')!,
      vp = first(s, 'V_NURBSproperties')!,
      list = first(s, 'ControlPtList')!;
    const du = Number(attr(up, 'degree')),
      dv = Number(attr(vp, 'degree'));
    let nU = Number(attr(up, 'numCtrlPts')),
      nV = Number(attr(vp, 'numCtrlPts'));
    let ku = attr(first(s, 'UknotVector')!, 'value')!.trim().split(/\s+/).map(Number),
      kv = attr(first(s, 'VknotVector')!, 'value')!.trim().split(/\s+/).map(Number);
    const cps = elems(list, 'ControlPoint');
    // homogeneous grid [iU][iV] = [wx, wy, wz, w]
    let grid = Array.from({ length: nU }, (_, i) =>
      Array.from({ length: nV }, (_, j) => {
        const c = cps[i * nV + j],
          w = Number(attr(c, 'weight') ?? 1),
          p = parse(attr(c, 'coordinates'));
        return [p[0] * w, p[1] * w, p[2] * w, w];
      }),
    );
    const mult = (k: number[], t: number) => k.filter((x) => Math.abs(x - t) < 1e-12).length;
    const lo = (k: number[]) => k[0],
      hi = (k: number[]) => k[k.length - 1];
    for (let m = mult(ku, (lo(ku) + hi(ku)) / 2); m < du; m++) {
      const t = (lo(ku) + hi(ku)) / 2;
      let knots = ku;
      const cols = Array.from({ length: nV }, (_, j) => {
        const r = insertKnot(
          grid.map((row) => row[j]),
          ku,
          du,
          t,
        );
        knots = r.knots;
        return r.P;
      });
      grid = cols[0].map((_, i) => cols.map((col) => col[i]));
      ku = knots;
      nU++;
    }
    for (let m = mult(kv, (lo(kv) + hi(kv)) / 2); m < dv; m++) {
      const t = (lo(kv) + hi(kv)) / 2;
      let knots = kv;
      grid = grid.map((row) => {
        const r = insertKnot(row, kv, dv, t);
        knots = r.knots;
        return r.P;
      });
      kv = knots;
      nV++;
    }
    const rational = grid.some((row) => row.some((h) => Math.abs(h[3] - 1) > 1e-12));
    for (const [p, n, k] of [
      [up, nU, ku],
      [vp, nV, kv],
    ] as const) {
      p.attrs = p.attrs.map(([a, v]) => [
        a,
        a === 'numCtrlPts'
          ? String(n)
          : a === 'numKnots'
            ? String(k.length)
            : a === 'isRational'
              ? String(rational)
              : v,
      ]);
    }
    first(s, 'UknotVector')!.attrs = [['value', ku.map(num).join(' ')]];
    first(s, 'VknotVector')!.attrs = [['value', kv.map(num).join(' ')]];
    list.kids = grid.flatMap((row) =>
      row.map((h) =>
        ocx('ControlPoint', [
          ['coordinates', fmt([h[0] / h[3], h[1] / h[3], h[2] / h[3]])],
          ['unit', 'Um'],
          ['weight', num(h[3])],
        ]),
      ),
    );
  }
}

/** The outer contours' CompositeCurve3D elements below e. */
const outerComposites = (e: El) => descendants(e, 'OuterContour').flatMap((c) => elems(c, 'CompositeCurve3D'));

const GAP: V3 = [0.0003, 0.0002, -0.0002]; // 0.41 mm, below the generator's DistanceTolerance of 1 mm

/** Writes each outer contour's segments end to start, each reversed, with a 0.41 mm gap at every joint. */
export function reverseContours(root: El): void {
  for (const cc of outerComposites(root)) {
    const segs = elems(cc).filter((s) => local(s.name) !== 'CurveLength');
    for (const s of segs) {
      const kind = local(s.name);
      if (kind === 'Line3D' || kind === 'CircumArc3D' || kind === 'PolyLine3D') {
        const a = first(s, 'StartPoint')!,
          b = first(s, 'EndPoint')!;
        [a.attrs, b.attrs] = [b.attrs, a.attrs];
        const p = parse(attr(a, 'coordinates'));
        a.attrs = a.attrs.map(([k, v]) => [
          k,
          k === 'coordinates' ? fmt([p[0] + GAP[0], p[1] + GAP[1], p[2] + GAP[2]]) : v,
        ]);
      } else if (kind === 'NURBS3D') {
        const list = first(s, 'ControlPtList')!,
          kv = first(s, 'KnotVector')!;
        const knots = attr(kv, 'value')!.trim().split(/\s+/).map(Number),
          a = knots[0],
          b = knots[knots.length - 1];
        kv.attrs = [
          [
            'value',
            knots
              .map((k) => num(a + b - k))
              .reverse()
              .join(' '),
          ],
        ];
        list.kids = elems(list, 'ControlPoint').reverse();
        const c0 = elems(list, 'ControlPoint')[0],
          p = parse(attr(c0, 'coordinates'));
        c0.attrs = c0.attrs.map(([k, v]) => [
          k,
          k === 'coordinates' ? fmt([p[0] + GAP[0], p[1] + GAP[1], p[2] + GAP[2]]) : v,
        ]);
      }
    }
    const head = cc.kids.filter((k) => typeof k !== 'string' && local(k.name) === 'CurveLength');
    cc.kids = [...head, ...segs.reverse()];
  }
}

/** An outer contour of Line3D segments only becomes one closed NURBS3D of degree 1 (knots by chord length). */
export function contourAsNurbs(root: El, ids: NewIds): void {
  for (const c of descendants(root, 'OuterContour')) {
    const cc = first(c, 'CompositeCurve3D');
    const segs = cc ? elems(cc).filter((s) => local(s.name) !== 'CurveLength') : [];
    if (!cc || !segs.length || segs.some((s) => local(s.name) !== 'Line3D')) continue;
    const pts = segs.map((s) => parse(attr(first(s, 'StartPoint')!, 'coordinates')));
    pts.push(pts[0]);
    const cum = [0];
    for (let i = 1; i < pts.length; i++) cum.push(cum[i - 1] + Math.hypot(...sub(pts[i], pts[i - 1])));
    const total = cum[cum.length - 1];
    const knots = [0, ...cum.map((l) => l / total), 1];
    c.kids[c.kids.indexOf(cc)] = ocx(
      'NURBS3D',
      [['id', ids.next()]],
      [
        length(total),
        ocx('NURBSproperties', [
          ['degree', '1'],
          ['numCtrlPts', String(pts.length)],
          ['numKnots', String(knots.length)],
          ['form', 'Closed'],
          ['isRational', 'false'],
        ]),
        ocx('KnotVector', [['value', knots.map(num).join(' ')]]),
        ocx(
          'ControlPtList',
          [],
          pts.map((p) =>
            ocx('ControlPoint', [
              ['coordinates', fmt(p)],
              ['unit', 'Um'],
              ['weight', '1'],
            ]),
          ),
        ),
      ],
    );
  }
}

/**
 * Polygonal outer contours as PolyLine3D. OCX 3.1 defines PolyLine3D by a StartPoint and an EndPoint: each
 * Line3D segment becomes one. OCX 3.0 defines it as a Point3D list: the whole contour becomes one closed
 * PolyLine3D (isClosed, first point not repeated).
 */
export function linesAsPolyLines(root: El, ids: NewIds, schema: '3.0' | '3.1'): void {
  if (schema === '3.1') {
    for (const cc of outerComposites(root))
      for (const s of elems(cc, 'Line3D')) s.name = s.name.replace(/Line3D$/, 'PolyLine3D');
    return;
  }
  for (const c of descendants(root, 'OuterContour')) {
    const cc = first(c, 'CompositeCurve3D');
    const segs = cc ? elems(cc).filter((s) => local(s.name) !== 'CurveLength') : [];
    if (!cc || !segs.length || segs.some((s) => local(s.name) !== 'Line3D')) continue;
    const pts = segs.map((s) => parse(attr(first(s, 'StartPoint')!, 'coordinates')));
    const total = pts.reduce((n, p, i) => n + Math.hypot(...sub(pts[(i + 1) % pts.length], p)), 0);
    c.kids[c.kids.indexOf(cc)] = ocx(
      'PolyLine3D',
      [
        ['id', ids.next()],
        ['isClosed', 'true'],
      ],
      [length(total), ...pts.map((p) => point('Point3D', p))],
    );
  }
}
