/**
 * XML serialisation of the generated ship as OCX 3.1.0 (OCX_GUIDE §2–§4, schema
 * ../shared/models/ocx/OCX_Schema_3.1.0.xsd). Element order follows the XSD sequences, modelled on
 * NAPA's 3.1 exports (NAPA-TR03_TC*.3docx). Geometry in metres (unit "Um"), thicknesses in mm ("Umm").
 */
import type { BracketDesc, GradeName, GridPlane, PanelDesc, PlateDesc, SectionName, StiffenerDesc, SurfaceDesc, Vec3 } from './shipLayout';

/** Steel density used for every grade, kg/m³. */
export const STEEL_DENSITY = 7850;

/** Catalogue of profiles: shape element, dimensions (m), cross-section area (m²), centroid height above the trace (m). */
export const SECTIONS: Record<SectionName, { shape: string; dims: [string, number][]; area: number; centroid: number }> = {
  HP200x10: { shape: 'BulbFlat', dims: [['Height', 0.2], ['WebThickness', 0.01], ['FlangeWidth', 0.0379]], area: 0.0023, centroid: 0.118 },
  HP260x11: { shape: 'BulbFlat', dims: [['Height', 0.26], ['WebThickness', 0.011], ['FlangeWidth', 0.0465]], area: 0.00349, centroid: 0.155 },
  'T400x12+150x15': { shape: 'TBar', dims: [['Height', 0.4], ['Width', 0.15], ['WebThickness', 0.012], ['FlangeThickness', 0.015]], area: 0.385 * 0.012 + 0.15 * 0.015, centroid: (0.385 * 0.012 * 0.1925 + 0.15 * 0.015 * 0.3925) / (0.385 * 0.012 + 0.15 * 0.015) },
  FB150x12: { shape: 'FlatBar', dims: [['Height', 0.15], ['Width', 0.012]], area: 0.0018, centroid: 0.075 },
};

/** Material grades: yield and ultimate stress, N/mm². */
export const GRADES: Record<GradeName, { yield: number; ultimate: number }> = {
  A: { yield: 235, ultimate: 400 },
  A36: { yield: 355, ultimate: 490 },
  D36: { yield: 355, ultimate: 490 },
};

/** Per-type counters filled while writing. */
export interface WriteCounts {
  panels: number;
  plates: number;
  stiffeners: number;
  brackets: number;
}

/** Formats a number for XML: at most 6 decimals, no trailing zeros, no "-0". */
export function num(v: number): string {
  const r = Math.round(v * 1e6) / 1e6;
  return Object.is(r, -0) || r === 0 ? '0' : String(r);
}

const pt = (p: Vec3) => `${num(p[0])} ${num(p[1])} ${num(p[2])}`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** Ids and GUIDs: a running counter and a seeded generator, so output is deterministic for a seed. */
export class IdSource {
  private n = 0;
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  /** Next @id, e.g. "g42". */
  id(): string {
    return `g${++this.n}`;
  }
  /** A uniform number in [0, 1) (mulberry32). */
  random(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** A GUID string 8-4-4-4-12 hex. */
  guid(): string {
    let h = '';
    for (let i = 0; i < 4; i++) h += Math.floor(this.random() * 4294967296).toString(16).padStart(8, '0');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

/** Catalogue ids shared by the vessel part and the catalogue part of the document. */
export interface CatalogueIds {
  material: Record<GradeName, { id: string; guid: string }>;
  section: Record<SectionName, { id: string; guid: string }>;
  planes: Map<string, string>;
}

export function catalogueIds(ids: IdSource): CatalogueIds {
  const material = {} as CatalogueIds['material'];
  for (const g of Object.keys(GRADES) as GradeName[]) material[g] = { id: `MAT_${g}`, guid: ids.guid() };
  const section = {} as CatalogueIds['section'];
  for (const s of Object.keys(SECTIONS) as SectionName[]) section[s] = { id: `SEC_${s.replace(/[^A-Za-z0-9]/g, '_')}`, guid: ids.guid() };
  return { material, section, planes: new Map() };
}

/** Header, Vessel start, tolerances, CoordinateSystem with frame tables, ClassificationData. */
export function documentStart(name: string, ids: IdSource, cat: CatalogueIds, planes: { x: GridPlane[]; y: GridPlane[]; z: GridPlane[] }, particulars: { length: number; breadth: number; depth: number; draught: number }): string {
  const refPlanes = (list: GridPlane[]) =>
    list
      .map((p) => {
        const guid = ids.guid();
        cat.planes.set(p.id, guid);
        return `<ocx:RefPlane id="${p.id}" name="${p.id}" ocx:GUIDRef="${guid}" displayGrid="${p.display}"><ocx:ReferenceLocation numericvalue="${num(p.location)}" unit="Um"/></ocx:RefPlane>\n`;
      })
      .join('');
  const n = esc(name);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<ocx:ocxXML xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:ocx="https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd" schemaVersion="3.1.0">\n` +
    `<ocx:Header name="${n}" author="Keelson bench" organization="Keelson" originating_system="Keelson ship generator" documentation="Generated parametric hull" application_version="1" time_stamp="2024-01-01T00:00:00Z"/>\n` +
    `<ocx:Vessel id="${ids.id()}" name="${n}" ocx:GUIDRef="${ids.guid()}">\n` +
    `<ocx:DistanceTolerance numericvalue="1" unit="Umm"/>\n<ocx:AngleTolerance numericvalue="0.05" unit="URad"/>\n` +
    `<ocx:CoordinateSystem id="${ids.id()}" ocx:GUIDRef="${ids.guid()}" isGlobal="true">\n` +
    `<ocx:XRefPlanes>\n${refPlanes(planes.x)}</ocx:XRefPlanes>\n<ocx:YRefPlanes>\n${refPlanes(planes.y)}</ocx:YRefPlanes>\n<ocx:ZRefPlanes>\n${refPlanes(planes.z)}</ocx:ZRefPlanes>\n` +
    `<ocx:LocalCartesian><ocx:Origin coordinates="0 0 0" unit="Um"/><ocx:PrimaryAxis direction="1 0 0"/><ocx:SecondaryAxis direction="0 1 0"/></ocx:LocalCartesian>\n` +
    `</ocx:CoordinateSystem>\n` +
    `<ocx:ClassificationData ocx:newbuildingSociety="DNV" identification="KEELSON-BENCH"><ocx:PrincipalParticulars>` +
    `<ocx:Lpp numericvalue="${num(particulars.length)}" unit="Um"/><ocx:RuleLength numericvalue="${num(particulars.length)}" unit="Um"/>` +
    `<ocx:BlockCoefficient numericvalue="0.85" unit="UDimless"/><ocx:FP_Pos numericvalue="${num(particulars.length)}" unit="Um"/>` +
    `<ocx:MouldedBreadth numericvalue="${num(particulars.breadth)}" unit="Um"/><ocx:MouldedDepth numericvalue="${num(particulars.depth)}" unit="Um"/>` +
    `<ocx:ScantlingDraught numericvalue="${num(particulars.draught)}" unit="Um"/><ocx:DesignSpeed numericvalue="14" unit="UKnots"/>` +
    `<ocx:FreeboardLength numericvalue="${num(particulars.length)}" unit="Um"/><ocx:AP_Pos numericvalue="0" unit="Um"/>` +
    `</ocx:PrincipalParticulars></ocx:ClassificationData>\n`
  );
}

/** Mass (kg) and centre of gravity (m) of a part. */
export interface MassPoint {
  mass: number;
  cog: Vec3;
}

/** Area (m²) and centroid of a planar polygon (triangle fan with signed areas along its normal). */
export function polygonAreaCentroid(poly: Vec3[]): { area: number; centroid: Vec3 } {
  const n: Vec3 = [0, 0, 0];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i], b = poly[(i + 1) % poly.length];
    n[0] += (a[1] - b[1]) * (a[2] + b[2]);
    n[1] += (a[2] - b[2]) * (a[0] + b[0]);
    n[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  const nl = Math.hypot(n[0], n[1], n[2]) || 1;
  const u: Vec3 = [n[0] / nl, n[1] / nl, n[2] / nl];
  let area = 0;
  const c: Vec3 = [0, 0, 0];
  const o = poly[0];
  for (let i = 1; i + 1 < poly.length; i++) {
    const a = poly[i], b = poly[i + 1];
    const e1 = [a[0] - o[0], a[1] - o[1], a[2] - o[2]], e2 = [b[0] - o[0], b[1] - o[1], b[2] - o[2]];
    const cr = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const t = (cr[0] * u[0] + cr[1] * u[1] + cr[2] * u[2]) / 2;
    area += t;
    for (let k = 0; k < 3; k++) c[k] += (t * (o[k] + a[k] + b[k])) / 3;
  }
  return { area: Math.abs(area), centroid: area !== 0 ? [c[0] / area, c[1] / area, c[2] / area] : [...o] };
}

function physical(m: MassPoint): string {
  return `<ocx:PhysicalProperties><ocx:DryWeight numericvalue="${num(m.mass)}" unit="UKg"/><ocx:CenterOfGravity coordinates="${pt(m.cog)}" unit="Um"/></ocx:PhysicalProperties>`;
}

const dist = (a: Vec3, b: Vec3) => Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);

/** A Line3D segment with its CurveLength (required by the 3.1 schema). */
function line(ids: IdSource, a: Vec3, b: Vec3): string {
  return `<ocx:Line3D id="${ids.id()}"><ocx:CurveLength numericvalue="${num(dist(a, b))}" unit="Um"/><ocx:StartPoint coordinates="${pt(a)}" unit="Um"/><ocx:EndPoint coordinates="${pt(b)}" unit="Um"/></ocx:Line3D>`;
}

/** A closed polygon as a CompositeCurve3D of Line3D segments. */
function contour(ids: IdSource, poly: Vec3[]): string {
  const total = poly.reduce((n, p, i) => n + dist(p, poly[(i + 1) % poly.length]), 0);
  let s = `<ocx:CompositeCurve3D id="${ids.id()}"><ocx:CurveLength numericvalue="${num(total)}" unit="Um"/>`;
  for (let i = 0; i < poly.length; i++) s += line(ids, poly[i], poly[(i + 1) % poly.length]);
  return s + `</ocx:CompositeCurve3D>`;
}

function surface(ids: IdSource, cat: CatalogueIds, s: SurfaceDesc): string {
  if (s.kind === 'grid') return `<ocx:GridRef localRef="${s.ref}" ocx:GUIDRef="${cat.planes.get(s.ref)}" ocx:refType="ocx:ReferencePlane"/>`;
  return `<ocx:Plane3D id="${ids.id()}"><ocx:Origin coordinates="${pt(s.origin)}" unit="Um"/><ocx:Normal direction="${pt(s.normal)}"/></ocx:Plane3D>`;
}

function material(cat: CatalogueIds, grade: GradeName, thicknessMm: number, tag = 'PlateMaterial'): string {
  const m = cat.material[grade];
  return `<ocx:${tag} localRef="${m.id}" ocx:GUIDRef="${m.guid}" ocx:refType="ocx:Material"><ocx:Thickness numericvalue="${num(thicknessMm)}" unit="Umm"/></ocx:${tag}>`;
}

/** Mass properties of a plate-like part (polygon × thickness × density). */
export function plateMass(outline: Vec3[], thicknessMm: number): MassPoint & { area: number } {
  const { area, centroid } = polygonAreaCentroid(outline);
  return { area, mass: area * (thicknessMm / 1000) * STEEL_DENSITY, cog: centroid };
}

/** Mass properties of a stiffener (length × section area × density; centroid lifted along the web). */
export function stiffenerMass(s: StiffenerDesc): MassPoint {
  const sec = SECTIONS[s.section];
  const len = Math.hypot(s.end[0] - s.start[0], s.end[1] - s.start[1], s.end[2] - s.start[2]);
  const mid: Vec3 = [0, 1, 2].map((k) => (s.start[k] + s.end[k]) / 2 + s.web[k] * sec.centroid) as Vec3;
  return { mass: len * sec.area * STEEL_DENSITY, cog: mid };
}

function plateXml(ids: IdSource, cat: CatalogueIds, p: PlateDesc): { xml: string; mass: MassPoint } {
  const m = plateMass(p.outline, p.thicknessMm);
  const own = p.surface ? `<ocx:UnboundedGeometry>${surface(ids, cat, p.surface)}</ocx:UnboundedGeometry>` : '';
  const xml =
    `<ocx:Plate id="${ids.id()}" name="${esc(p.name)}" ocx:GUIDRef="${ids.guid()}">${physical(m)}` +
    `<ocx:NetArea numericvalue="${num(m.area)}" unit="Um2"/><ocx:OuterContour>${contour(ids, p.outline)}</ocx:OuterContour>` +
    `${material(cat, p.grade, p.thicknessMm)}${own}</ocx:Plate>\n`;
  return { xml, mass: m };
}

function bracketXml(ids: IdSource, cat: CatalogueIds, b: BracketDesc): { xml: string; mass: MassPoint } {
  const m = plateMass(b.outline, b.thicknessMm);
  const [o, u, v] = b.outline;
  const arm = (p: Vec3) => Math.hypot(p[0] - o[0], p[1] - o[1], p[2] - o[2]);
  const dir = (p: Vec3) => pt([0, 1, 2].map((k) => (p[k] - o[k]) / arm(p)) as Vec3);
  const xml =
    `<ocx:Bracket id="${ids.id()}" name="${esc(b.name)}" ocx:GUIDRef="${ids.guid()}" ocx:functionType="BRACKET">${physical(m)}` +
    `<ocx:BracketParameters ocx:hasEdgeReinforcement="false"><ocx:ArmLengthU numericvalue="${num(arm(u))}" unit="Um"/><ocx:ArmLengthV numericvalue="${num(arm(v))}" unit="Um"/>` +
    `<ocx:UDirection direction="${dir(u)}"/><ocx:VDirection direction="${dir(v)}"/><ocx:Origin coordinates="${pt(o)}" unit="Um"/></ocx:BracketParameters>` +
    `${material(cat, b.grade, b.thicknessMm)}<ocx:OuterContour>${contour(ids, b.outline)}</ocx:OuterContour>` +
    `<ocx:UnboundedGeometry>${surface(ids, cat, { kind: 'plane', origin: o, normal: b.normal })}</ocx:UnboundedGeometry></ocx:Bracket>\n`;
  return { xml, mass: m };
}

function stiffenerXml(ids: IdSource, cat: CatalogueIds, s: StiffenerDesc): { xml: string; mass: MassPoint } {
  const m = stiffenerMass(s);
  const sec = cat.section[s.section], mat = cat.material[s.grade];
  const len = Math.hypot(s.end[0] - s.start[0], s.end[1] - s.start[1], s.end[2] - s.start[2]);
  const along = pt([0, 1, 2].map((k) => (s.end[k] - s.start[k]) / len) as Vec3);
  const mid = pt([0, 1, 2].map((k) => (s.start[k] + s.end[k]) / 2) as Vec3);
  const xml =
    `<ocx:Stiffener id="${ids.id()}" name="${esc(s.name)}" ocx:GUIDRef="${ids.guid()}">${physical(m)}` +
    `<ocx:TraceLine><ocx:CompositeCurve3D id="${ids.id()}"><ocx:CurveLength numericvalue="${num(len)}" unit="Um"/>${line(ids, s.start, s.end)}</ocx:CompositeCurve3D></ocx:TraceLine>` +
    `<ocx:MaterialRef localRef="${mat.id}" ocx:GUIDRef="${mat.guid}" ocx:refType="ocx:Material"/>` +
    `<ocx:SectionRef localRef="${sec.id}" ocx:GUIDRef="${sec.guid}" ocx:refType="ocx:BarSection"><ocx:OffsetU numericvalue="0" unit="Um"/><ocx:OffsetV numericvalue="0" unit="Um"/></ocx:SectionRef>` +
    `<ocx:Inclination><ocx:WebDirection direction="${pt(s.web)}"/><ocx:FlangeDirection direction="${along}"/><ocx:Position coordinates="${mid}" unit="Um"/></ocx:Inclination></ocx:Stiffener>\n`;
  return { xml, mass: m };
}

/** One Panel element with its plates, brackets and stiffeners; panel PhysicalProperties is the sum of its parts. */
export function panelXml(ids: IdSource, cat: CatalogueIds, p: PanelDesc, counts: WriteCounts): string {
  const parts = [...p.plates.map((x) => plateXml(ids, cat, x)), ...p.brackets.map((x) => bracketXml(ids, cat, x))];
  const stiffeners = p.stiffeners.map((x) => stiffenerXml(ids, cat, x));
  const all = [...parts, ...stiffeners];
  const mass = all.reduce((n, x) => n + x.mass.mass, 0);
  const cog = [0, 1, 2].map((k) => (mass > 0 ? all.reduce((n, x) => n + x.mass.mass * x.mass.cog[k], 0) / mass : 0)) as Vec3;
  counts.panels++;
  counts.plates += p.plates.length;
  counts.brackets += p.brackets.length;
  counts.stiffeners += p.stiffeners.length;
  const limits = p.limits.map((r) => `<ocx:GridRef localRef="${r}" ocx:GUIDRef="${cat.planes.get(r)}" ocx:refType="ocx:ReferencePlane"/>`).join('');
  return (
    `<ocx:Panel id="${ids.id()}" name="${esc(p.name)}" ocx:GUIDRef="${ids.guid()}" ocx:functionType="${esc(p.functionType)}" ocx:tightness="${p.tightness}">\n` +
    `<ocx:Description>${esc(p.description)}</ocx:Description><ocx:UnboundedGeometry>${surface(ids, cat, p.surface)}</ocx:UnboundedGeometry>` +
    `<ocx:LimitedBy>${limits}</ocx:LimitedBy>\n<ocx:ComposedOf>\n${parts.map((x) => x.xml).join('')}</ocx:ComposedOf>\n${physical({ mass, cog })}\n` +
    (stiffeners.length ? `<ocx:StiffenedBy>\n${stiffeners.map((x) => x.xml).join('')}</ocx:StiffenedBy>\n` : '') +
    `</ocx:Panel>\n`
  );
}
