/**
 * Every row of engine/ocx/expectedDeviations.ts is a proven error of the file: the arithmetic its proof
 * names is recomputed here from the file's own figures (DryWeight, NetArea, Thickness, Density,
 * CenterOfGravity, FlangeDirection, trace length) and the part's geometry (bounding box, section), never
 * from the deviation the importer measured.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sectionPolygon } from '../../../engine/geometry/barSections';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import type { ImportResult } from '../../../engine/model/types';
import { EXPECTED_DEVIATIONS, type ExpectedDeviation } from '../../../engine/ocx/expectedDeviations';
import { sectionCentroid } from '../../../engine/ocx/memberMesh';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');
const results = new Map<string, ImportResult>();

beforeAll(async () => {
  for (const f of new Set(EXPECTED_DEVIATIONS.map((d) => d.file)))
    results.set(f, await importOcxFile(path.join(DIR, f)));
}, 120_000);

/** The part's object index, properties, bounds (mm) and fidelity record. */
function partOf(d: ExpectedDeviation) {
  const r = results.get(d.file)!;
  const i = r.objects.findIndex((o) => o.id === d.part);
  expect(i, `${d.file} ${d.part} exists`).toBeGreaterThanOrEqual(0);
  const fid = r.fidelity!.find((f) => f.object === i)!;
  return { p: r.properties[i], b: r.objects[i].bounds!, fid, r };
}

const num = (v: unknown) => v as number;

/** FlangeDirection of the first Inclination of the part element with this id, read from the file's text. */
function flangeDirection(file: string, id: string): [number, number, number] {
  const text = readFileSync(path.join(DIR, file), 'utf8');
  const at = text.indexOf(`id="${id}"`);
  const end = text.indexOf('</ocx:Stiffener>', at);
  const m = /<ocx:FlangeDirection direction="([^"]+)"/.exec(text.slice(at, end));
  expect(m, `${id} has a FlangeDirection`).not.toBeNull();
  return m![1].trim().split(/\s+/).map(Number) as [number, number, number];
}

type V3 = [number, number, number];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const crossV = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V3) => Math.hypot(...a);

/** The circle through three points: centre, radius and unit normal. */
function circleThrough(a: V3, b: V3, c: V3): { o: V3; r: number; n: V3 } {
  const ab = sub(b, a),
    ac = sub(c, a),
    m = crossV(ab, ac),
    m2 = dot(m, m);
  const t1 = crossV(ac, m).map((v) => v * dot(ab, ab)),
    t2 = crossV(m, ab).map((v) => v * dot(ac, ac));
  const o: V3 = [0, 1, 2].map((k) => a[k] + (t1[k] + t2[k]) / (2 * m2)) as V3;
  return { o, r: norm(sub(a, o)), n: m.map((v) => v / Math.sqrt(m2)) as V3 };
}

/**
 * The circles and circular arcs of a plate's OuterContour, read from the file's text (mm): Circle3D
 * (Center, Diameter, Normal), CircumCircle3D (three Positions), CircumArc3D (Start, Intermediate, End;
 * `mid` is the arc's middle direction and `half` its half-angle).
 */
function contourCircles(file: string, id: string) {
  const text = readFileSync(path.join(DIR, file), 'utf8');
  const at = text.indexOf(`id="${id}"`);
  const body = text.slice(text.indexOf('<ocx:OuterContour>', at), text.indexOf('</ocx:OuterContour>', at));
  const pts = (s: string, tag: string) =>
    [...s.matchAll(new RegExp(`<ocx:${tag} coordinates="([^"]+)"`, 'g'))].map(
      (m) => m[1].trim().split(/\s+/).map(Number) as V3,
    );
  const out: { o: V3; r: number; n: V3; arc?: { mid: V3; half: number } }[] = [];
  for (const m of body.matchAll(/<ocx:(Circle3D|CircumCircle3D|CircumArc3D)\b[\s\S]*?<\/ocx:\1>/g)) {
    const e = m[0];
    if (m[1] === 'Circle3D') {
      const o = pts(e, 'Center')[0],
        d = Number(/<ocx:Diameter numericvalue="([^"]+)"/.exec(e)![1]),
        n = /<ocx:Normal direction="([^"]+)"/.exec(e)![1].trim().split(/\s+/).map(Number) as V3;
      out.push({ o, r: d / 2, n: n.map((v) => v / norm(n)) as V3 });
    } else if (m[1] === 'CircumCircle3D') {
      const [a, b, c] = pts(e, 'Point3D');
      out.push(circleThrough(a, b, c));
    } else {
      const [a, b, c] = [pts(e, 'StartPoint')[0], pts(e, 'IntermediatePoint')[0], pts(e, 'EndPoint')[0]];
      const k = circleThrough(a, b, c);
      const chordMid = [0, 1, 2].map((i) => (a[i] + c[i]) / 2) as V3;
      const toMid = sub(chordMid, k.o);
      // the intermediate point lies on the arc, on the side of the chord the arc bulges to
      const side = dot(sub(b, chordMid), toMid) >= 0 ? 1 : -1;
      const l = norm(toMid);
      const mid = (l > 1e-9 ? toMid.map((v) => (side * v) / l) : sub(b, k.o).map((v) => v / k.r)) as V3;
      const halfChord = norm(sub(c, a)) / 2;
      const half = side > 0 ? Math.asin(halfChord / k.r) : Math.PI - Math.asin(halfChord / k.r);
      out.push({ ...k, arc: { mid, half } });
    }
  }
  return out;
}

/** The part element's text (from its id to its closing tag). */
function partText(file: string, id: string, element: string): string {
  const text = readFileSync(path.join(DIR, file), 'utf8');
  const at = text.indexOf(`id="${id}"`);
  return text.slice(at, text.indexOf(`</ocx:${element}>`, at));
}

const vec = (s: string) => s.trim().split(/\s+/).map(Number) as V3;

/** The straight segments (Line3D, metres → mm) of a part's TraceLine. */
function traceSegments(body: string): [V3, V3][] {
  return [...body.matchAll(/<ocx:Line3D[\s\S]*?<\/ocx:Line3D>/g)].map((m) => {
    const [a, b] = [/StartPoint coordinates="([^"]+)"/, /EndPoint coordinates="([^"]+)"/].map(
      (r) => vec(r.exec(m[0])![1]).map((v) => v * 1000) as V3,
    );
    return [a, b];
  });
}

/** The Inclinations of a part: web, flange and position (mm). */
function inclinations(body: string) {
  return [...body.matchAll(/<ocx:Inclination>[\s\S]*?<\/ocx:Inclination>/g)].map((m) => ({
    web: vec(/WebDirection direction="([^"]+)"/.exec(m[0])![1]),
    flange: vec(/FlangeDirection direction="([^"]+)"/.exec(m[0])![1]),
    at: vec(/Position coordinates="([^"]+)"/.exec(m[0])![1]).map((v) => v * 1000) as V3,
  }));
}

const proofs: Record<ExpectedDeviation['proof'], (d: ExpectedDeviation) => void> = {
  'weight-vs-own-figures': (d) => {
    const { p } = partOf(d);
    // catalogue units: W t, AREA m², PLTH m, RHO t/m³ — all the file's own values
    const own = num(p.AREA) * num(p.PLTH) * num(p.RHO);
    expect(Math.abs(num(p.W) / own - 1), `${d.part}: DryWeight vs NetArea × t × ρ`).toBeGreaterThan(0.01);
  },
  'area-beyond-bounds': (d) => {
    const { p, b } = partOf(d);
    const ext = [b[3] - b[0], b[4] - b[1], b[5] - b[2]].map((v) => v / 1000).sort((x, y) => y - x);
    expect(num(p.AREA), `${d.part}: NetArea vs its bounding rectangle`).toBeGreaterThan(1.01 * ext[0] * ext[1]);
  },
  'cog-outside-part': (d) => {
    const { fid, b } = partOf(d);
    const c = fid.vendor.cogMm!;
    const outside = [0, 1, 2].some((k) => c[k] < b[k] - 10 || c[k] > b[k + 3] + 10);
    expect(outside, `${d.part}: vendor CoG ${c} outside ${b}`).toBe(true);
  },
  'cog-at-part-end': (d) => {
    const { fid, b } = partOf(d);
    const c = fid.vendor.cogMm!;
    const atEnd = [0, 1, 2].some(
      (k) => b[k + 3] - b[k] > 500 && (Math.abs(c[k] - b[k]) <= 10 || Math.abs(b[k + 3] - c[k]) <= 10),
    );
    expect(atEnd, `${d.part}: vendor CoG ${c} at an end of ${b}`).toBe(true);
  },
  'weight-vs-trace-length': (d) => {
    const { p } = partOf(d);
    // L: the file's trace length (m); AREA_GEOM: the section area (m²); W and RHO: t, t/m³
    const byTrace = num(p.L) * num(p.AREA_GEOM) * num(p.RHO);
    expect(Math.abs(num(p.W) / byTrace - 1), `${d.part}: DryWeight vs section × trace × ρ`).toBeGreaterThan(0.05);
  },
  'bulb-against-flange-direction': (d) => {
    const { fid, p } = partOf(d);
    expect(String(p.PROFILE)).toMatch(/BulbFlat/);
    const f = flangeDirection(d.file, d.part);
    // the bulb's centroid offset from the back of the web, from the section the catalogue gives (HP200x10)
    const [uc] = sectionCentroid(sectionPolygon('BulbFlat', { height: 200, webThickness: 10 }));
    const v = fid.vendor.cogMm!,
      c = fid.computed.cogMm!;
    const along = (v[0] - c[0]) * f[0] + (v[1] - c[1]) * f[1] + (v[2] - c[2]) * f[2];
    expect(along, `${d.part}: vendor CoG lies against FlangeDirection by twice the bulb offset`).toBeCloseTo(
      -2 * uc,
      0,
    );
    expect(Math.hypot(v[0] - c[0], v[1] - c[1], v[2] - c[2])).toBeCloseTo(2 * uc, 0);
  },
  'cog-off-band-centroid': (d) => {
    const { fid, p } = partOf(d);
    const cs = contourCircles(d.file, d.part);
    expect(cs.length, `${d.part}: two circles or arcs bound the band`).toBe(2);
    const [c1, c2] = cs;
    expect(Math.abs(dot(c1.n, c2.n)), 'in parallel planes').toBeCloseTo(1, 6);
    const n = c1.n,
      h = dot(sub(c2.o, c1.o), n);
    const off = sub(sub(c2.o, c1.o), n.map((v) => v * h) as V3);
    expect(norm(off), 'centres on one axis').toBeLessThan(1e-6);
    expect(!!c1.arc, 'both circles or both arcs').toBe(!!c2.arc);
    // along the axis: a frustum's lateral surface (a cylinder for r1 = r2)
    const along = (h * (c1.r + 2 * c2.r)) / (3 * (c1.r + c2.r));
    // across: on the axis for whole circles; an arc's centroid R sin α / α from its centre
    const across = c1.arc ? c1.arc.mid.map((v) => (v * c1.r * Math.sin(c1.arc!.half)) / c1.arc!.half) : [0, 0, 0];
    if (c1.arc) expect(c2.r, 'one arc radius (a cylinder band)').toBeCloseTo(c1.r, 6);
    const centroid = [0, 1, 2].map((k) => c1.o[k] + along * n[k] + across[k]) as V3;
    const v = fid.vendor.cogMm!;
    const halfT = (num(p.PLTH) * 1000) / 2; // the solid's centroid lies within half the thickness of the sheet's
    expect(norm(sub(v, centroid)), `${d.part}: vendor CoG ${v} vs the band's centroid ${centroid}`).toBeGreaterThan(
      10 + halfT,
    );
  },
  'cog-off-trace-centroid': (d) => {
    const { fid, p } = partOf(d);
    expect(String(p.PROFILE)).toMatch(/HP200x10/i);
    const body = partText(d.file, d.part, 'Stiffener');
    const segs = traceSegments(body);
    const incl = inclinations(body);
    expect(segs.length).toBeGreaterThan(1);
    const W = incl[0].web;
    // the section's width across the web, from the section the catalogue gives (HP200x10)
    const s = sectionPolygon('BulbFlat', { height: 200, webThickness: 10 });
    const width = Math.max(...s.outer.filter((_, k) => k % 2 === 0));
    const lens = segs.map(([a, b]) => norm(sub(b, a)));
    const L = lens.reduce((x, y) => x + y, 0);
    const c = [0, 1, 2].map((k) => segs.reduce((acc, [a, b], i) => acc + (lens[i] * (a[k] + b[k])) / 2, 0) / L);
    const proven = [0, 1, 2].some((k) => {
      if (Math.abs(W[k]) > 1e-6) return false; // the web's own extent would move the CoG along this axis
      const bound = segs.reduce((acc, [a, b], i) => {
        const T = sub(b, a).map((v) => v / lens[i]) as V3;
        const F = crossV(T, W);
        return acc + (lens[i] / L) * width * Math.abs(F[k] / norm(F));
      }, 0);
      return Math.abs(fid.vendor.cogMm![k] - c[k]) > bound + 1;
    });
    expect(proven, `${d.part}: vendor CoG ${fid.vendor.cogMm} vs the trace centroid ${c}`).toBe(true);
  },
  'cog-of-untwisted-bar': (d) => {
    const { fid, p } = partOf(d);
    expect(String(p.PROFILE)).toMatch(/200X10X100X12 L/);
    const body = partText(d.file, d.part, 'Stiffener');
    const [[a, b]] = traceSegments(body);
    const incl = inclinations(body);
    expect(incl.length).toBeGreaterThan(1);
    const [uc, vc] = sectionCentroid(
      sectionPolygon('LBar', { height: 200, width: 100, webThickness: 10, flangeThickness: 12 }),
    );
    const Lt = norm(sub(b, a));
    const T = sub(b, a).map((v) => v / Lt) as V3;
    const angle = (w: V3) => Math.atan2(dot(crossV(incl[0].web, w), T), dot(incl[0].web, w));
    const along = incl.map((i) => dot(sub(i.at, a), T));
    const turns = incl.map((i) => angle(i.web));
    expect(Math.max(...turns) - Math.min(...turns), 'the web turns').toBeGreaterThan(0.1);
    // the section at a web turned by θ from the first Inclination's (its flange turning with it)
    const offset = (th: number): V3 => {
      const c = Math.cos(th),
        s = Math.sin(th);
      const rot = (v: V3): V3 => {
        const k = crossV(T, v);
        return [0, 1, 2].map((i) => v[i] * c + k[i] * s + T[i] * dot(T, v) * (1 - c)) as V3;
      };
      const w = rot(incl[0].web),
        f = rot(incl[0].flange);
      return [0, 1, 2].map((i) => vc * w[i] + uc * f[i]) as V3;
    };
    const mid = [0, 1, 2].map((k) => (a[k] + b[k]) / 2) as V3;
    const untwisted = mid.map((v, k) => v + offset(0)[k]) as V3;
    // the web turning linearly between the Inclinations, averaged along the trace
    const n = 2000;
    const twisted = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const sAt = ((i + 0.5) / n) * Lt;
      let j = 0;
      while (j + 2 < along.length && sAt > along[j + 1]) j++;
      const f = Math.min(1, Math.max(0, (sAt - along[j]) / (along[j + 1] - along[j])));
      const o = offset(turns[j] + f * (turns[j + 1] - turns[j]));
      for (let k = 0; k < 3; k++) twisted[k] += (a[k] + T[k] * sAt + o[k]) / n;
    }
    const v = fid.vendor.cogMm!;
    expect(norm(sub(v, untwisted)), `${d.part}: the vendor CoG is the untwisted bar's`).toBeLessThan(1);
    expect(norm(sub(v, twisted as V3)), `${d.part}: the twisting bar's centroid is elsewhere`).toBeGreaterThan(10);
  },
  'shared-height': (d) => {
    const rows = EXPECTED_DEVIATIONS.filter((e) => e.file === d.file && e.proof === 'shared-height');
    const z = rows.map((e) => partOf(e).fid.vendor.cogMm![2]);
    const own = rows.map((e) => partOf(e).fid.computed.cogMm![2]);
    expect(Math.max(...z) - Math.min(...z), 'one vendor height for all').toBeLessThan(0.1);
    expect(Math.max(...own) - Math.min(...own), 'their geometries differ in height').toBeGreaterThan(20);
    const r = results.get(d.file)!;
    const plateZ = r.fidelity!.filter((f) => f.element === 'Plate').map((f) => f.vendor.cogMm?.[2]);
    expect(plateZ, 'the height is a plate’s').toContain(z[0]);
  },
};

describe('expected deviations are proven errors of the files', () => {
  it.each(EXPECTED_DEVIATIONS.map((d) => [`${d.file} ${d.part} ${d.quantity} (${d.proof})`, d] as const))(
    '%s',
    (_, d) => proofs[d.proof](d),
  );

  it('the HP200x10 bulb offset the AVEVA reason quotes is the section’s own', () => {
    const s = sectionPolygon('BulbFlat', { height: 200, webThickness: 10 });
    const [uc] = sectionCentroid(s);
    expect(s.area).toBeCloseTo(2566, -1);
    expect(uc).toBeCloseTo(8.6, 0);
  });
});
