/**
 * Phase 2 resolution of the ClassCatalogue, frame tables and design views (OCX_GUIDE §2.2, §2.4, §2.15):
 * materials in catalogue units (t/m³, N/mm²), bar sections as polygons (mm), RefPlanes as frame tables
 * (mm, sorted, number parsed from the name) and the block of each part from DesignView occurrences.
 */
import type { FrameTables, RefPlane } from '../model/types';
import { sectionPolygon, type SectionDims, type SectionOptions, type SectionPolygon } from '../geometry/barSections';
import type { RefPlaneLoc } from './surfaces';
import type { UnitTable } from './units';
import { child, type XNode } from './xmlTree';

/** A resolved Material: grade/name and properties in catalogue units (RHO t/m³, E and SIGMA N/mm²). */
export interface MaterialInfo {
  name: string;
  grade: string;
  rho?: number;
  E?: number;
  ny?: number;
  sigma?: number;
}

/** Resolves a Material node. */
export function materialOf(n: XNode, units: UnitTable): MaterialInfo {
  const rho = units.value(child(n, 'Density'), 'density');
  const E = units.value(child(n, 'YoungsModulus'), 'pressure');
  const sigma = units.value(child(n, 'YieldStress'), 'pressure');
  const ny = units.value(child(n, 'PoissonRatio'), 'other');
  return {
    name: n.a.name ?? n.a.id ?? '',
    grade: n.a.grade ?? n.a.name ?? '',
    rho: rho !== undefined ? rho / 1000 : undefined,
    E: E !== undefined ? E / 1e6 : undefined,
    ny,
    sigma: sigma !== undefined ? sigma / 1e6 : undefined,
  };
}

/** A resolved BarSection: display name "NAME (Kind)" and its polygon, or the reason it has none. */
export interface SectionInfo {
  name: string;
  kind: string;
  polygon: SectionPolygon | null;
  error?: string;
}

const DIM_NAMES: Record<string, keyof SectionDims> = {
  Height: 'height',
  Width: 'width',
  WebThickness: 'webThickness',
  FlangeThickness: 'flangeThickness',
  FlangeWidth: 'flangeWidth',
  BulbOuterRadius: 'bulbOuterRadius',
  BulbInnerRadius: 'bulbInnerRadius',
  BulbTopRadius: 'bulbTopRadius',
  Diameter: 'diameter',
  Thickness: 'thickness',
  Overshoot: 'overshoot',
};

/** Resolves a BarSection node (§2.15) into its polygon in mm, with the writer's shape conventions. */
export function sectionOf(n: XNode, units: UnitTable, opts: SectionOptions = {}): SectionInfo {
  const shape = n.c.find((c) => c.n !== 'Description' && c.n !== 'CustomProperties');
  const name = n.a.name ?? n.a.id ?? '';
  if (!shape) return { name, kind: '', polygon: null, error: `BarSection ${name} has no shape` };
  const d: SectionDims = {};
  for (const c of shape.c) {
    const k = DIM_NAMES[c.n];
    if (k) d[k] = (units.value(c, 'length') ?? NaN) * 1000;
    if (c.n === 'BulbAngle') d.bulbAngle = units.value(c, 'angle');
    if (c.n === 'SectionProperties') {
      const a = units.value(child(c, 'Area'), 'area');
      if (a !== undefined) d.area = a * 1e6;
    }
  }
  try {
    return { name, kind: shape.n, polygon: sectionPolygon(shape.n, d, opts) };
  } catch (e) {
    return { name, kind: shape.n, polygon: null, error: (e as Error).message };
  }
}

/** Frame number parsed from a RefPlane name ("FR12" → 12, "X0.6" → 0.6, "LO-3" → -3), or null. */
export function frameNumber(name: string): number | null {
  const m = /(-?\d+(?:\.\d+)?)/.exec(name.replace(/\.-/g, '-'));
  return m ? Number(m[1]) : null;
}

/** Frame tables from the CoordinateSystems (mm, sorted by coordinate) and a RefPlane lookup by id. */
export function frameTables(
  systems: XNode[],
  units: UnitTable,
): { frames: FrameTables; byId: Map<string, RefPlaneLoc> } {
  const frames: FrameTables = { x: [], y: [], z: [] };
  const byId = new Map<string, RefPlaneLoc>();
  const axes: [string, 0 | 1 | 2, RefPlane[]][] = [
    ['XRefPlanes', 0, frames.x],
    ['YRefPlanes', 1, frames.y],
    ['ZRefPlanes', 2, frames.z],
  ];
  // OCX 2.8.x wraps the RefPlane groups in FrameTables (inside or instead of a CoordinateSystem)
  const holders = systems.flatMap((cs) => [cs, ...cs.c.filter((c) => c.n === 'FrameTables')]);
  for (const cs of holders)
    for (const [el, axis, list] of axes)
      for (const group of cs.c.filter((c) => c.n === el))
        for (const rp of group.c.filter((c) => c.n === 'RefPlane')) {
          const v = units.value(child(rp, 'ReferenceLocation'), 'length');
          if (v === undefined) continue;
          const mm = v * 1000;
          const id = ownText(rp.a.id ?? '');
          byId.set(id, { axis, mm });
          const name = rp.a.name === undefined ? id : ownText(rp.a.name);
          list.push({ id, name, coordinate: mm, number: frameNumber(name) });
        }
  for (const l of [frames.x, frames.y, frames.z]) l.sort((a, b) => a.coordinate - b.coordinate);
  return { frames, byId };
}

/**
 * A flat copy of a text that outlives the parsed XML (results: names, ids, messages) and shares no
 * storage with the decoded chunk it may be a slice of: V8 makes slices and concatenations of 13
 * characters and more, and one kept slice keeps its whole chunk alive. A JSON round trip gives one flat
 * string without a wrapper. Shorter texts are returned as they are (they are copies already).
 */
export function ownText<T extends string | null>(s: T): T {
  return s !== null && s.length > 12 ? JSON.parse(JSON.stringify(s)) : s;
}
