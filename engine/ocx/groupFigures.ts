/**
 * Figures of a part group that phases 2–3 (engine/ocx/buildModel.ts) take from the file and the
 * catalogue rather than from the geometry: the world-coordinate sanity check and box, material and bar-section
 * look-ups, a trace's file length and the panel sums.
 */
import type { MeshBuilder } from '../geometry/MeshBuilder';
import { type Box3Tuple, growBox, type PropertyRecord } from '../model/types';
import type { SharedData } from './buildModel';
import { HOLE_ELEMENTS, type PartRecord } from './reader';
import type { UnitTable } from './units';
import { child, type XNode } from './xmlTree';

/** Largest coordinate accepted, mm (10 000 km): beyond it a value is absurd, not a ship. */
export const MAX_COORD_MM = 1e10;

/**
 * What placing a part's mesh needs from its positions (xyz mm), found in one pass: 'absurd' when a finite
 * coordinate lies beyond ±MAX_COORD_MM; else 'not-finite' when a position or edge coordinate is NaN or
 * infinite; else the positions' box into `box` (as growBox grows it) and 'ok'.
 */
export function meshExtent(mb: MeshBuilder, box: Box3Tuple): 'absurd' | 'not-finite' | 'ok' {
  const P = mb.positions;
  let finite = true;
  for (let i = 0; i < P.length; i++) {
    const x = P[i];
    if (!Number.isFinite(x)) finite = false;
    else if (Math.abs(x) > MAX_COORD_MM) return 'absurd';
  }
  if (!finite) return 'not-finite';
  const E = mb.edges;
  for (let i = 0; i < E.length; i++) if (!Number.isFinite(E[i])) return 'not-finite';
  growBox(box, P);
  return 'ok';
}

/** The file's length of a TraceLine in m: composite CurveLength, else the sum of segment lengths. */
export function traceLengthOf(trace: XNode | undefined, units: UnitTable): number | undefined {
  if (!trace) return undefined;
  let total = 0,
    any = false;
  for (const c of trace.c) {
    const own = units.value(child(c, 'CurveLength'), 'length');
    if (own !== undefined && own > 0) {
      total += own;
      any = true;
    } else if (c.n === 'CompositeCurve3D') {
      for (const s of c.c) {
        const l = units.value(child(s, 'CurveLength'), 'length');
        if (l !== undefined && l > 0) {
          total += l;
          any = true;
        }
      }
    }
  }
  return any ? total : undefined;
}

/** The thickness (catalogue unit m) of a FlatBar (width) or BulbFlat (web) bar section, else undefined. */
export function sectionThickness(ref: string | undefined, raw: SharedData, units: UnitTable): number | undefined {
  const n = raw.catalogue.get(ref ?? '');
  const shape = n?.c.find((c) => c.n === 'FlatBar' || c.n === 'BulbFlat');
  const v = units.value(child(shape, shape?.n === 'FlatBar' ? 'Width' : 'WebThickness'), 'length');
  return v;
}

/** A panel without file values gets the summed W and AREA of its plates and other parts; props[0] is object `base`. */
export function sumPanels(parts: PartRecord[], base: number, kids: number[][], props: PropertyRecord[]): void {
  for (let l = 0; l < parts.length; l++) {
    if (parts[l].kind !== 'Panel') continue;
    const i = base + l;
    const kind = (k: number) => parts[k - base].kind;
    const ch = kids[l].filter((k) => !HOLE_ELEMENTS.has(kind(k)));
    if (props[i - base].W === undefined) {
      const w = ch.reduce((s, k) => s + (typeof props[k - base].W === 'number' ? (props[k - base].W as number) : 0), 0);
      if (w > 0) props[i - base].W = w;
    }
    if (props[i - base].AREA === undefined) {
      const a = ch
        .filter((k) => kind(k) === 'Plate')
        .reduce((s, k) => s + (typeof props[k - base].AREA === 'number' ? (props[k - base].AREA as number) : 0), 0);
      if (a > 0) props[i - base].AREA = a;
    }
  }
}
