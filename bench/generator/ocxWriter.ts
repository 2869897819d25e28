/**
 * XML serialisation of the generated ship as OCX 3.1.0 (OCX_GUIDE §2–§4, schema
 * ../shared/models/ocx/OCX_Schema_3.1.0.xsd). Element order follows the XSD sequences, modelled on
 * NAPA's 3.1 exports (NAPA-TR03_TC*.3docx). Geometry in metres (unit "Um"), thicknesses in mm ("Umm").
 */
import type { BracketDesc, GradeName, GridPlane, HoleDesc, PanelDesc, PlateDesc, SeamDesc, SectionName, StiffenerDesc, SurfaceDesc, Vec3 } from './shipLayout';
import { HOLE_SIZES } from './framePlan';
import { type NurbsCurve, type NurbsPatch, curveLength, patchAreaCentroid, patchBoundary } from './nurbs';

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
  /** Seam elements (SplitBy). */
  seams: number;
  /** Cut-outs: Hole2DContour and InnerContour elements. */
  holes: number;
  /** Plates on NURBS surfaces. */
  curvedPlates: number;
}

/** Empty counters. */
export const zeroCounts = (): WriteCounts => ({ panels: 0, plates: 0, stiffeners: 0, brackets: 0, seams: 0, holes: 0, curvedPlates: 0 });

/** Formats a number for XML: at most 6 decimals, no trailing zeros, no "-0". */
export function num(v: number): string {
  const r = Math.round(v * 1e6) / 1e6;
  return Object.is(r, -0) || r === 0 ? '0' : String(r);
}

export const pt = (p: Vec3) => `${num(p[0])} ${num(p[1])} ${num(p[2])}`;
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** Ids and GUIDs: a running counter and a seeded generator, so output is deterministic for a seed. */
export class IdSource {
  private n = 0;
  private state: number;
  private readonly seed: number;
  constructor(seed: number) {
    this.seed = seed >>> 0;
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
  /** A GUID that depends only on the seed and `key` (so references can be written before their target). */
  guidOf(key: string): string {
    let h = this.seed ^ 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    const g = new IdSource(h >>> 0);
    return g.guid();
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
  hole: Record<string, { id: string; guid: string }>;
  section: Record<SectionName, { id: string; guid: string }>;
  planes: Map<string, string>;
}

/** Ids and GUIDs of the catalogue entries (materials, bar sections, hole shapes). */
export function catalogueIds(ids: IdSource): CatalogueIds {
  const material = {} as CatalogueIds['material'];
  for (const g of Object.keys(GRADES) as GradeName[]) material[g] = { id: `MAT_${g}`, guid: ids.guid() };
  const section = {} as CatalogueIds['section'];
  for (const s of Object.keys(SECTIONS) as SectionName[]) section[s] = { id: `SEC_${s.replace(/[^A-Za-z0-9]/g, '_')}`, guid: ids.guid() };
  const hole: CatalogueIds['hole'] = {};
  for (const h of Object.keys(HOLE_SIZES)) hole[h] = { id: `HOLE_${h}`, guid: ids.guid() };
  return { material, section, hole, planes: new Map() };
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

