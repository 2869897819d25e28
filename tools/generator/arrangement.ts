/**
 * Compartments and the block DesignView of the bench ship (OCX_GUIDE §2.4, §2.17).
 *
 * Each Compartment is a closed volume written as CompartmentFaces (a Plane3D plus a FaceBoundaryCurve
 * each): the region of the hull inside a box of ξ, y and z. In the parallel midbody the region is a
 * prism (two end caps and one quad per section edge); elsewhere it is lofted between stations with the
 * section outline resampled to a fixed number of points, in triangles. Volume and centre of gravity
 * come from those faces (divergence theorem). Metres.
 */
import { type HullDims, type Vec2, type Vec3, area2, clipBox, hullX, sectionAt, sectionPolygon } from './hullForm';
import { type IdSource, PartIds, contour, esc, num, pt } from './ocxWriter';
import { BLOCK_FRAMES, type PanelDesc, doubleSideIntervals, hasDoubleBottom, inMidbody } from './shipLayout';

/** A compartment: purpose (schema enumeration), cargo and the box it fills inside the hull. */
export interface CompartmentDesc {
  name: string;
  purpose: string;
  cargo:
    | { kind: 'liquid'; type: string; density: number }
    | { kind: 'bulk'; type: string }
    | { kind: 'unit'; type: string };
  tightness: 'WaterTight' | 'NonTight';
  xi0: number;
  xi1: number;
  y0: number;
  y1: number;
  z0: number;
  z1: number;
}

const BALLAST = { kind: 'liquid', type: 'water ballast', density: 1025 } as const;

/** The compartments of the arrangement, aft to fore. */
export function planCompartments(d: HullDims): CompartmentDesc[] {
  const s = d.frameSpacing,
    I = Infinity,
    hDB = d.doubleBottom,
    out: CompartmentDesc[] = [];
  const box = (
    name: string,
    purpose: string,
    cargo: CompartmentDesc['cargo'],
    f0: number,
    f1: number,
    y0 = -I,
    y1 = I,
    z0 = -I,
    z1 = I,
    tightness: CompartmentDesc['tightness'] = 'WaterTight',
  ) => out.push({ name, purpose, cargo, tightness, xi0: f0 * s, xi1: f1 * s, y0, y1, z0, z1 });
  const [er, cargo0] = [d.holdBulkheads[0], d.holdBulkheads[1]];
  box('AFT PEAK', 'aft_peak_tank', BALLAST, 0, d.aftPeakFrame);
  let dbStart = d.aftPeakFrame;
  while (dbStart < er && !hasDoubleBottom(d, dbStart * s)) dbStart++;
  box(
    'ENGINE ROOM',
    'main_engine_room',
    { kind: 'unit', type: 'unspecified' },
    d.aftPeakFrame,
    er,
    -I,
    I,
    dbStart < er ? hDB : -I,
    I,
  );
  if (dbStart < er)
    box(
      'DB FUEL OIL',
      'double_bottom_tank',
      { kind: 'liquid', type: 'fuel oil', density: 890 },
      dbStart,
      er,
      -I,
      I,
      -I,
      hDB,
    );
  box('COFFERDAM', 'void', { kind: 'unit', type: 'unspecified' }, er, cargo0, -I, I, -I, I, 'NonTight');
  const ds = doubleSideIntervals(d),
    tanker = d.breadth >= 36;
  const cargo = tanker
    ? ({ kind: 'liquid', type: 'crude oil', density: 870 } as const)
    : ({ kind: 'bulk', type: 'grain' } as const);
  for (let k = 1; k + 1 < d.holdBulkheads.length; k++) {
    const f0 = d.holdBulkheads[k],
      f1 = d.holdBulkheads[k + 1],
      n = k;
    const wing = ds.some(([a, b]) => a === f0 * s && b === f1 * s);
    const yIn = wing ? d.breadth / 2 - d.doubleSide : I;
    if (wing)
      for (const side of [1, -1])
        box(
          `WING ${n} ${side > 0 ? 'P' : 'S'}`,
          'double_side_tank',
          BALLAST,
          f0,
          f1,
          side > 0 ? yIn : -I,
          side > 0 ? I : -yIn,
          hDB,
          I,
        );
    const ys =
      wing && d.cargoBulkheadsY.length ? [-yIn, -d.cargoBulkheadsY[0], d.cargoBulkheadsY[0], yIn] : [-yIn, yIn];
    for (let j = 0; j + 1 < ys.length; j++) {
      const label =
        ys.length === 2 ? `HOLD ${n}` : j === 1 ? `CARGO TANK ${n} C` : `CARGO TANK ${n} ${j === 0 ? 'S' : 'P'}`;
      box(
        label,
        ys.length === 2 ? 'cargo_compartment' : j === 1 ? 'centre_tank' : 'wing_tank',
        cargo,
        f0,
        f1,
        ys[j],
        ys[j + 1],
        hDB,
        I,
      );
    }
    for (const side of [1, -1])
      box(
        `DB ${n} ${side > 0 ? 'P' : 'S'}`,
        'double_bottom_tank',
        BALLAST,
        f0,
        f1,
        side > 0 ? 0 : -I,
        side > 0 ? I : 0,
        -I,
        hDB,
      );
  }
  box('FORE PEAK', 'fore_peak_tank', BALLAST, d.collisionFrame, d.frames);
  return out;
}

/** The region's outline at ξ, [y, z], counter-clockwise. */
function regionAt(d: HullDims, c: CompartmentDesc, xi: number): Vec2[] {
  const p = clipBox(sectionPolygon(sectionAt(d, xi), 8), c.y0, c.y1, c.z0, c.z1);
  return area2(p) < 0 ? p.reverse() : p;
}

/** Resamples a closed outline to n points by arc length, starting below its centroid. */
function resample(p: Vec2[], n: number): Vec2[] {
  const cy = p.reduce((a, q) => a + q[0], 0) / p.length;
  let start = 0,
    best = Infinity;
  for (let i = 0; i < p.length; i++) {
    const q = p[i],
      r = p[(i + 1) % p.length];
    if ((q[0] - cy) * (r[0] - cy) <= 0 && q[0] !== r[0]) {
      const z = q[1] + ((cy - q[0]) / (r[0] - q[0])) * (r[1] - q[1]);
      if (z < best) {
        best = z;
        start = i;
      }
    }
  }
  const seq = [...p.slice(start + 1), ...p.slice(0, start + 1)];
  seq.unshift([cy, best]);
  const len: number[] = [0];
  for (let i = 1; i <= seq.length; i++)
    len.push(len[i - 1] + Math.hypot(seq[i % seq.length][0] - seq[i - 1][0], seq[i % seq.length][1] - seq[i - 1][1]));
  const total = len[seq.length],
    out: Vec2[] = [];
  for (let k = 0, i = 0; k < n; k++) {
    const t = (total * k) / n;
    while (len[i + 1] < t) i++;
    const a = seq[i],
      b = seq[(i + 1) % seq.length],
      f = (t - len[i]) / Math.max(len[i + 1] - len[i], 1e-12);
    out.push([a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])]);
  }
  return out;
}

/** The closed faces (planar polygons, outward) of a compartment. */
export function compartmentFaces(d: HullDims, c: CompartmentDesc): Vec3[][] {
  const mid = inMidbody(d, c.xi0, c.xi1) && c.xi0 >= d.aftPeakFrame * d.frameSpacing;
  const n = mid ? 1 : Math.max(2, Math.ceil((c.xi1 - c.xi0) / Math.max(d.frameSpacing, (c.xi1 - c.xi0) / 6)));
  const xis = Array.from({ length: n + 1 }, (_, i) => c.xi0 + ((c.xi1 - c.xi0) * i) / n);
  const to3 = (xi: number, poly: Vec2[]) => {
    const sec = sectionAt(d, xi);
    return poly.map(([y, z]) => [hullX(d, xi, z, sec), y, z] as Vec3);
  };
  const rings = mid
    ? xis.map((xi) => to3(xi, regionAt(d, c, xi)))
    : xis.map((xi) => to3(xi, resample(regionAt(d, c, xi), 20)));
  const faces: Vec3[][] = [[...rings[0]].reverse(), rings[n]];
  for (let i = 0; i < n; i++) {
    const a = rings[i],
      b = rings[i + 1];
    for (let k = 0; k < a.length; k++) {
      const k1 = (k + 1) % a.length;
      if (mid || flat([a[k], a[k1], b[k1], b[k]])) faces.push([a[k], a[k1], b[k1], b[k]]);
      else faces.push([a[k], a[k1], b[k1]], [a[k], b[k1], b[k]]);
    }
  }
  return faces.filter((f) => f.length >= 3 && area3(f) > 1e-10);
}

/** Whether a quad is planar within 1 mm (then it is written as one face instead of two triangles). */
function flat(q: Vec3[]): boolean {
  const n = newell(q),
    l = Math.hypot(n[0], n[1], n[2]);
  if (l < 1e-12) return true;
  const d0 = (p: Vec3) => ((p[0] - q[0][0]) * n[0] + (p[1] - q[0][1]) * n[1] + (p[2] - q[0][2]) * n[2]) / l;
  return q.every((p) => Math.abs(d0(p)) < 1e-3);
}

function area3(f: Vec3[]): number {
  const n = newell(f);
  return Math.hypot(n[0], n[1], n[2]) / 2;
}

function newell(f: Vec3[]): Vec3 {
  const n: Vec3 = [0, 0, 0];
  for (let i = 0; i < f.length; i++) {
    const a = f[i],
      b = f[(i + 1) % f.length];
    n[0] += (a[1] - b[1]) * (a[2] + b[2]);
    n[1] += (a[2] - b[2]) * (a[0] + b[0]);
    n[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  return n;
}

/** Volume (m³) and centroid (m) of a closed, outward-oriented face set (divergence theorem, fan triangles). */
export function volumeCentroid(faces: Vec3[][]): { volume: number; centroid: Vec3 } {
  let v = 0;
  const c: Vec3 = [0, 0, 0];
  for (const f of faces)
    for (let i = 1; i + 1 < f.length; i++) {
      const a = f[0],
        b = f[i],
        e = f[i + 1];
      const t =
        (a[0] * (b[1] * e[2] - b[2] * e[1]) - a[1] * (b[0] * e[2] - b[2] * e[0]) + a[2] * (b[0] * e[1] - b[1] * e[0])) /
        6;
      v += t;
      for (let k = 0; k < 3; k++) c[k] += (t * (a[k] + b[k] + e[k])) / 4;
    }
  return { volume: v, centroid: [c[0] / v, c[1] / v, c[2] / v] };
}

/** The Arrangement element with every compartment; returns the XML and the compartment count. */
export function arrangementXml(d: HullDims, ids: IdSource): { xml: string; count: number; volume: number } {
  let xml = `<ocx:Arrangement id="${ids.id()}" name="Tank and hold arrangement">\n`,
    total = 0;
  const list = planCompartments(d);
  for (const c of list) {
    let faces = compartmentFaces(d, c);
    let vc = volumeCentroid(faces);
    if (vc.volume < 0) {
      faces = faces.map((f) => [...f].reverse());
      vc = volumeCentroid(faces);
    }
    total += vc.volume;
    const id = ids.id();
    const cargo =
      c.cargo.kind === 'liquid'
        ? `<ocx:LiquidCargo ocx:liquidCargoType="${c.cargo.type}"><ocx:Density numericvalue="${c.cargo.density}" unit="UKgOverm3"/></ocx:LiquidCargo>`
        : c.cargo.kind === 'bulk'
          ? `<ocx:BulkCargo ocx:bulkCargoType="${c.cargo.type}"/>`
          : `<ocx:UnitCargo ocx:unitCargoType="${c.cargo.type}"/>`;
    xml +=
      `<ocx:Compartment id="${id}" name="${esc(c.name)}" ocx:GUIDRef="${ids.guidOf(id)}" ocx:compartmentPurpose="${c.purpose}">` +
      `<ocx:CustomProperties><ocx:CustomProperty id="${ids.id()}" name="tightness" value="${c.tightness}"/><ocx:CustomProperty id="${ids.id()}" name="frames" value="FR${Math.round(c.xi0 / d.frameSpacing)}-FR${Math.round(c.xi1 / d.frameSpacing)}"/></ocx:CustomProperties>` +
      `<ocx:CompartmentProperties><ocx:CenterOfGravity coordinates="${pt(vc.centroid)}" unit="Um"/><ocx:Volume numericvalue="${num(vc.volume)}" unit="Um3"/></ocx:CompartmentProperties>\n`;
    for (const f of faces) {
      const n = newell(f),
        l = Math.hypot(n[0], n[1], n[2]),
        fid = ids.id();
      xml +=
        `<ocx:CompartmentFace id="${fid}" ocx:GUIDRef="${ids.guidOf(fid)}"><ocx:UnboundedGeometry><ocx:Plane3D id="${ids.id()}"><ocx:Origin coordinates="${pt(f[0])}" unit="Um"/>` +
        `<ocx:Normal direction="${pt([n[0] / l, n[1] / l, n[2] / l])}"/></ocx:Plane3D></ocx:UnboundedGeometry><ocx:FaceBoundaryCurve>${contour(ids, f)}</ocx:FaceBoundaryCurve></ocx:CompartmentFace>\n`;
    }
    xml += `${cargo}</ocx:Compartment>\n`;
  }
  return { xml: `${xml}</ocx:Arrangement>\n`, count: list.length, volume: total };
}

/**
 * The DesignView text in pieces: one OccurrenceGroup per block of BLOCK_FRAMES frames, one Occurrence
 * per panel with PlateRef, BracketRef, StiffenerRef and SeamRef to its parts. Part ids are numbered in
 * plan order exactly as panelXml numbers them.
 */
export function* designViewXml(
  panels: Iterable<PanelDesc>,
  ids: IdSource,
  vesselId: string,
  vesselGuid: string,
): Generator<string> {
  const partIds = new PartIds();
  let buf = `<ocx:DesignView id="${ids.id()}" name="Production blocks"><ocx:VesselRef localRef="${vesselId}" ocx:GUIDRef="${vesselGuid}" ocx:refType="ocx:Vessel"/>\n`;
  let block = 0;
  const ref = (tag: string, type: string, id: string) =>
    `<ocx:${tag} localRef="${id}" ocx:GUIDRef="${ids.guidOf(id)}" ocx:refType="ocx:${type}"/>`;
  for (const p of panels) {
    if (p.block !== block) {
      if (block) buf += `</ocx:OccurrenceGroup>\n`;
      block = p.block;
      buf += `<ocx:OccurrenceGroup id="${ids.id()}" name="B${block}" type="Block"><!-- frames ${(block - 1) * BLOCK_FRAMES}..${block * BLOCK_FRAMES} -->\n`;
    }
    partIds.next('pn');
    let occ = `<ocx:Occurrence id="${ids.id()}" name="${esc(p.name)}" type="Panel">`;
    for (const { id } of partIds.plates(p.plates)) occ += ref('PlateRef', 'Plate', id);
    for (let i = 0; i < p.brackets.length; i++) occ += ref('BracketRef', 'Bracket', partIds.next('br'));
    for (let i = 0; i < p.stiffeners.length; i++) occ += ref('StiffenerRef', 'Stiffener', partIds.next('st'));
    for (let i = 0; i < p.seams.length; i++) occ += ref('SeamRef', 'Seam', partIds.next('sm'));
    buf += `${occ}</ocx:Occurrence>\n`;
    if (buf.length > 1 << 16) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf + (block ? `</ocx:OccurrenceGroup>\n` : '')}</ocx:DesignView>\n`;
}
