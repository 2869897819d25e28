/**
 * Surface-object kernel (viewer.md §3 "Surface object"): parameters derived from
 * synthetic outlines whose dimensions are known by construction — a rectangle plate, a bracket with a
 * radiused free edge, a circle, a slot — as thickened solids (triangles) and as outline-only edges.
 */
import { describe, expect, it } from 'vitest';
import earcut from 'earcut';
import { fitCircle, segmentOutline } from '../../../engine/annotate/outlineSegments';
import { findPlanarFace, planeAxes } from '../../../engine/annotate/planarFace';
import { deriveSurfaceObject, type SurfaceParameter } from '../../../engine/annotate/surfaceObject';

type Pt = [number, number];

/** Points of an arc centred at c, radius r, from angle a0 to a1 (degrees), `n` chords, end included. */
function arc(c: Pt, r: number, a0: number, a1: number, n: number): Pt[] {
  const out: Pt[] = [];
  for (let i = 0; i <= n; i++) {
    const t = ((a0 + ((a1 - a0) * i) / n) * Math.PI) / 180;
    out.push([c[0] + r * Math.cos(t), c[1] + r * Math.sin(t)]);
  }
  return out;
}

/** A 2D outline (counter-clockwise, mm) thickened into a solid: plate in the plane x = x0 (u = Y, v = Z) from x0 to x0 + t. */
function solidInXPlane(outline: Pt[], x0: number, t: number): number[] {
  const flat = outline.flat();
  const tri = earcut(flat);
  const out: number[] = [];
  const P = (p: Pt, x: number) => [x, p[0], p[1]];
  for (let i = 0; i < tri.length; i += 3) {
    const [a, b, c] = [outline[tri[i]], outline[tri[i + 1]], outline[tri[i + 2]]];
    out.push(...P(a, x0 + t), ...P(b, x0 + t), ...P(c, x0 + t)); // normal +X (ccw seen from +X in Y,Z)
    out.push(...P(a, x0), ...P(c, x0), ...P(b, x0));
  }
  for (let i = 0; i < outline.length; i++) {
    const a = outline[i],
      b = outline[(i + 1) % outline.length];
    out.push(...P(a, x0), ...P(b, x0), ...P(b, x0 + t), ...P(a, x0), ...P(b, x0 + t), ...P(a, x0 + t));
  }
  return out;
}

/** Outline as edge segments in the plane z = z0 (u = X, v = Y). */
function edgesInZPlane(outline: Pt[], z0: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < outline.length; i++) {
    const a = outline[i],
      b = outline[(i + 1) % outline.length];
    out.push(a[0], a[1], z0, b[0], b[1], z0);
  }
  return out;
}

const mm = (p: SurfaceParameter) => Math.round(p.parameterValue * 1000);
const ofType = (ps: SurfaceParameter[], t: SurfaceParameter['parameterType']) =>
  ps.filter((p) => p.parameterType === t);

describe('outline segmentation', () => {
  it('fits a circle exactly through points of a known circle', () => {
    const f = fitCircle(arc([10, -5], 42, 0, 70, 7))!;
    expect(f.center[0]).toBeCloseTo(10, 6);
    expect(f.center[1]).toBeCloseTo(-5, 6);
    expect(f.radius).toBeCloseTo(42, 6);
  });
  it('splits a rounded rectangle into 4 lines and 4 quarter arcs, merging collinear points', () => {
    const r = 150,
      W = 600,
      H = 800;
    const pts: Pt[] = [
      ...arc([W / 2 - r, H / 2 - r], r, 0, 90, 12),
      ...arc([-W / 2 + r, H / 2 - r], r, 90, 180, 12),
      [-W / 2, 0], // a collinear extra point on a straight edge
      ...arc([-W / 2 + r, -H / 2 + r], r, 180, 270, 12),
      ...arc([W / 2 - r, -H / 2 + r], r, 270, 360, 12),
    ];
    const els = segmentOutline(pts.flat());
    const arcs = els.filter((e) => e.kind === 'arc');
    const lines = els.filter((e) => e.kind === 'line');
    expect(arcs).toHaveLength(4);
    for (const a of arcs)
      if (a.kind === 'arc') {
        expect(a.radius).toBeCloseTo(150, 3);
        expect(Math.abs(a.sweep)).toBeCloseTo(Math.PI / 2, 3);
      }
    expect(lines.map((l) => Math.round(l.kind === 'line' ? l.length : 0)).sort((a, b) => a - b)).toEqual([
      300, 300, 500, 500,
    ]);
  });
  it('keeps an ellipse as a curve, not as many short lines', () => {
    const pts: Pt[] = [];
    for (let i = 0; i < 64; i++) pts.push([300 * Math.cos((i * Math.PI) / 32), 600 * Math.sin((i * Math.PI) / 32)]);
    const els = segmentOutline(pts.flat());
    expect(els.some((e) => e.kind === 'line')).toBe(false);
    expect(els.some((e) => e.kind === 'curve')).toBe(true);
  });
});

describe('deriveSurfaceObject', () => {
  it('rectangular plate: plane at the face centroid, horizontalLength / verticalLength in the plane axes', () => {
    // Transverse plate x = 1000..1010, Y 200..2200 (2000 wide), Z 500..1300 (800 high), with T-junction points.
    const outline: Pt[] = [
      [200, 500],
      [1200, 500],
      [2200, 500],
      [2200, 1300],
      [200, 1300],
      [200, 900],
    ];
    const so = deriveSurfaceObject('P1', { triangles: solidInXPlane(outline, 1000, 10), edges: [] })!;
    expect(so).not.toBeNull();
    const n = so.definitionPlane.normal;
    expect(Math.abs(n.nx)).toBeCloseTo(1, 6);
    expect(so.definitionPlane.point.y).toBeCloseTo(1.2, 6);
    expect(so.definitionPlane.point.z).toBeCloseTo(0.9, 6);
    expect([1, 1.01]).toContain(so.definitionPlane.point.x);
    expect(so.parameters.map((p) => p.parameterType).sort()).toEqual(['horizontalLength', 'verticalLength']);
    expect(mm(ofType(so.parameters, 'horizontalLength')[0])).toBe(2000);
    expect(mm(ofType(so.parameters, 'verticalLength')[0])).toBe(800);
    const h = ofType(so.parameters, 'horizontalLength')[0];
    expect(Math.abs(h.endPoint!.y - h.startPoint!.y)).toBeCloseTo(2, 6);
    expect(h.endPoint!.z).toBeCloseTo(h.startPoint!.z, 6);
  });

  it('bracket with a radiused free edge: arm lengths, toes, free-edge radius and the 90° angle at the arm corner', () => {
    // Arms along +Y (600) and +Z (500) from the corner; toes 30; a concave free edge of R 700 between the toe ends.
    const corner: Pt = [100, 2000];
    const A: Pt = [corner[0] + 600, corner[1]],
      At: Pt = [A[0], A[1] + 30];
    const B: Pt = [corner[0], corner[1] + 500],
      Bt: Pt = [B[0] + 30, B[1]];
    // Circle of radius R through At and Bt, centre on the far side (concave edge).
    const R = 700;
    const m: Pt = [(At[0] + Bt[0]) / 2, (At[1] + Bt[1]) / 2],
      d = Math.hypot(At[0] - Bt[0], At[1] - Bt[1]);
    const h = Math.sqrt(R * R - (d / 2) ** 2),
      nrm: Pt = [(At[1] - Bt[1]) / d, (Bt[0] - At[0]) / d];
    const c: Pt = [m[0] - nrm[0] * h, m[1] - nrm[1] * h];
    const a0 = (Math.atan2(At[1] - c[1], At[0] - c[0]) * 180) / Math.PI,
      a1 = (Math.atan2(Bt[1] - c[1], Bt[0] - c[0]) * 180) / Math.PI;
    const free = arc(c, R, a0, a0 + ((((a1 - a0) % 360) + 540) % 360) - 180, 24).slice(1, -1);
    const outline: Pt[] = [corner, A, At, ...free, Bt, B];
    const so = deriveSurfaceObject(
      'B1',
      { triangles: solidInXPlane(outline, -500, 12), edges: [] },
      { bracket: true },
    )!;
    const lengths = ofType(so.parameters, 'length')
      .map(mm)
      .sort((a, b) => a - b);
    expect(lengths).toEqual([30, 30, 500, 600]);
    const radii = ofType(so.parameters, 'radius');
    expect(radii).toHaveLength(1);
    expect(mm(radii[0])).toBe(700);
    expect(radii[0].startPoint!.y * 1000).toBeCloseTo(c[0], 1);
    expect(radii[0].startPoint!.z * 1000).toBeCloseTo(c[1], 1);
    const ang = ofType(so.parameters, 'angle');
    expect(ang).toHaveLength(1);
    expect(ang[0].parameterValue).toBeCloseTo(90, 3);
    expect(ang[0].angleVertex!.y * 1000).toBeCloseTo(corner[0], 3);
    expect(ang[0].angleVertex!.z * 1000).toBeCloseTo(corner[1], 3);
    // The arc sweeps counter-clockwise about the normal from startPoint to endPoint.
    const n = so.definitionPlane.normal;
    const v = ang[0].angleVertex!,
      s = ang[0].startPoint!,
      e = ang[0].endPoint!;
    const d1 = [s.x - v.x, s.y - v.y, s.z - v.z],
      d2 = [e.x - v.x, e.y - v.y, e.z - v.z];
    const cr = [d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0]];
    expect(cr[0] * n.nx + cr[1] * n.ny + cr[2] * n.nz).toBeGreaterThan(0);
  });

  it('circular hole (edges only, deck plane): one radius from the centre', () => {
    const pts = arc([5000, 3000], 250, 0, 360, 112).slice(0, -1);
    const so = deriveSurfaceObject('H1', { triangles: [], edges: edgesInZPlane(pts, 1500) })!;
    expect(so.parameters).toHaveLength(1);
    expect(so.parameters[0].parameterType).toBe('radius');
    expect(mm(so.parameters[0])).toBe(250);
    expect(so.parameters[0].startPoint).toEqual({ x: 5, y: 3, z: 1.5 });
    expect(so.definitionPlane.point).toEqual({ x: 5, y: 3, z: 1.5 });
    expect(Math.abs(so.definitionPlane.normal.nz)).toBe(1);
  });

  it('slot: overall width and height plus the two end radii', () => {
    // Slot 600 long (along X) × 200 wide, ends R 100.
    const pts: Pt[] = [...arc([200, 0], 100, -90, 90, 16), ...arc([-200, 0], 100, 90, 270, 16)];
    const so = deriveSurfaceObject('S1', { triangles: [], edges: edgesInZPlane(pts, 0) })!;
    expect(mm(ofType(so.parameters, 'horizontalLength')[0])).toBe(600);
    expect(mm(ofType(so.parameters, 'verticalLength')[0])).toBe(200);
    expect(ofType(so.parameters, 'radius').map(mm)).toEqual([100, 100]);
    expect(ofType(so.parameters, 'length')).toHaveLength(0);
  });

  it('skips straight edges shorter than 1 % of the part size', () => {
    // 1000 × 1000 square with one corner cut by a 5 mm chamfer (< 1 % of the 1414 diagonal) and one by 100 mm.
    const outline: Pt[] = [
      [0, 0],
      [995, 0],
      [1000, 5],
      [1000, 1000],
      [100, 1000],
      [0, 900],
    ];
    const so = deriveSurfaceObject('P2', { triangles: solidInXPlane(outline, 0, 8), edges: [] })!;
    const lengths = ofType(so.parameters, 'length')
      .map(mm)
      .sort((a, b) => a - b);
    expect(lengths).toEqual([141, 900, 900, 995, 995]);
  });

  it('returns null for a curved (non-planar) part and for open edges', () => {
    const tris: number[] = [];
    for (let i = 0; i < 40; i++) {
      const a = (i * Math.PI) / 40,
        b = ((i + 1) * Math.PI) / 40,
        R = 1000;
      const p = (t: number, z: number) => [R * Math.cos(t), R * Math.sin(t), z];
      tris.push(...p(a, 0), ...p(b, 0), ...p(b, 500), ...p(a, 0), ...p(b, 500), ...p(a, 500));
    }
    expect(deriveSurfaceObject('C', { triangles: tris, edges: [] })).toBeNull();
    expect(deriveSurfaceObject('E', { triangles: [], edges: [0, 0, 0, 100, 0, 0, 100, 0, 0, 100, 100, 0] })).toBeNull();
    expect(deriveSurfaceObject('N', { triangles: [], edges: [] })).toBeNull();
  });

  it('plane axes are right-handed: u × v = n; vertical faces have v along +Z', () => {
    for (const n of [
      [1, 0, 0],
      [0, -1, 0],
      [0, 0, 1],
      [0.6, 0, 0.8],
      [0, 0.8, -0.6],
    ] as [number, number, number][]) {
      const { u, v } = planeAxes(n);
      const c = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      for (let k = 0; k < 3; k++) expect(c[k]).toBeCloseTo(n[k], 9);
      if (Math.abs(n[2]) < 0.7) expect(v[2]).toBeGreaterThan(0);
    }
    const face = findPlanarFace({
      triangles: [],
      edges: edgesInZPlane(
        [
          [0, 0],
          [10, 0],
          [10, 10],
          [0, 10],
        ],
        0,
      ),
    })!;
    expect(face.loops[0].length).toBe(8);
  });
});
