/**
 * Section results (viewer.md §3 "Section results"; §9 "Drawing"). Produced by engine/section/section.ts
 * from the model's triangles, drawn by the engine, exported by engine/export, and (in metres) answered
 * by GET /api/keelson-instance/{steel,ship-model,cad-components}/section. Engine units: mm.
 */
import type { ObjectType } from '../model/types';

/** Section axis (the plane is axis = coordinate). */
export type SectionAxis = 'X' | 'Y' | 'Z';

/** 0, 1, 2 for X, Y, Z. */
export const axisIndex = (a: SectionAxis): 0 | 1 | 2 => (a === 'X' ? 0 : a === 'Y' ? 1 : 2);

/**
 * A polyline on the section plane: flat xyz triplets (mm, world), closed when its last point joins its first.
 * `points` is a typed array, not a JavaScript array: a section's polylines are often views into one
 * buffer (the WebAssembly kernel's output copied once), so a cut allocates no per-point heap values for the
 * garbage collector to copy, and the result crosses to the UI thread as one buffer. Do not write into it.
 */
export interface SectionPolyline {
  points: Float64Array;
  closed: boolean;
}

/** Any polyline to draw (flat xyz, mm): a SectionPolyline, or a grid line or pillar centreline's plain array. */
export interface PolylineLike {
  points: ArrayLike<number>;
  closed: boolean;
}

/**
 * How an object meets the plane (viewer.md §3): lying in it ('inSection'), cut across ('intersected'),
 * or ending on it from the negative / positive side ('connectingNegative' / 'connectingPositive').
 */
export type SectionRelation = 'inSection' | 'intersected' | 'connectingNegative' | 'connectingPositive';

export const SECTION_RELATIONS: readonly SectionRelation[] = [
  'inSection',
  'intersected',
  'connectingNegative',
  'connectingPositive',
];

/** The spec's "steel section curve": one object's curves in the section. */
export interface SteelSectionCurve {
  /** OCX id of the object (the spec's stid). */
  stid: string;
  /** Object index (engine node id). */
  object: number;
  name: string;
  type: ObjectType;
  relation: SectionRelation;
  /** Polylines of the cut (or, in section, of the object's outline). */
  curves: SectionPolyline[];
  /** Intersected plates: trace length (mm) and thickness (mm); label `${round(length)} x ${thickness}`. */
  length?: number;
  thickness?: number;
  label?: string;
  /** Pillars: centreline (mm, two or more points; one point when cut across). */
  centerline?: number[];
}

/** Curves grouped by relation. */
export type RelationGroups = Record<SectionRelation, SteelSectionCurve[]>;

/** Steel classes of the section result (viewer.md §3). */
export const STEEL_CLASSES = [
  'plates',
  'seams',
  'stiffeners',
  'pillars',
  'openings',
  'brackets',
  'holes',
  'cutouts',
  'notches',
] as const;
export type SteelClass = (typeof STEEL_CLASSES)[number];

/** Steel section (GET .../steel/section). */
export interface SteelSection extends Record<SteelClass, RelationGroups> {
  axis: SectionAxis;
  /** Plane coordinate, mm. */
  coordinate: number;
  /** OCX ids of main objects (panels) with a part in the section. */
  mainObjectsInSection: string[];
}

/** Compartment section (GET .../ship-model/section). */
export interface CompartmentSection {
  compartmentName: string;
  stid: string;
  curves: SectionPolyline[];
  purposeColor: { r: number; g: number; b: number };
}

/** CAD component section (GET .../cad-components/section). */
export interface CadComponentSection {
  componentName: string;
  stid: string;
  curves: SectionPolyline[];
}

/** A grid line of the section drawing: a reference plane of another axis drawn across the section. */
export interface SectionGridLine {
  /** Plane name, e.g. 'FR10'. */
  name: string;
  /** Which system: 'x' | 'y' | 'z'. */
  axis: 'x' | 'y' | 'z';
  /** Two points (xyz mm) on the section plane. */
  points: [number, number, number, number, number, number];
  main: boolean;
  /** viewer.md §9 grid line widths: main 0.5, aux 0.25. */
  width: number;
}

/** The whole section of a model at one plane. */
export interface SectionResult {
  axis: SectionAxis;
  coordinate: number;
  steel: SteelSection;
  compartments: CompartmentSection[];
  cadComponents: CadComponentSection[];
  grid: SectionGridLine[];
}

/** Entity kinds used for draw priorities and export layers. */
export type SectionEntityKind = SteelClass | 'compartments' | 'cadComponents' | 'grid' | 'labels';

/**
 * Draw priorities of viewer.md §9: plates intersected 1.1, seams 1, plates in section 0.9, stiffener
 * traces and intersected 0.8, stiffeners in section 0.7, pillars/openings/holes/brackets 0.6,
 * compartments and CAD 0.5, grid lines 0. Plates connecting to the plane draw like intersected ones,
 * stiffeners connecting to it are the "traces"; cutouts and notches draw like openings; labels on top.
 */
export function drawPriority(kind: SectionEntityKind, relation?: SectionRelation): number {
  switch (kind) {
    case 'plates':
      return relation === 'inSection' ? 0.9 : 1.1;
    case 'seams':
      return 1;
    case 'stiffeners':
      return relation === 'inSection' ? 0.7 : 0.8;
    case 'pillars':
    case 'openings':
    case 'holes':
    case 'brackets':
    case 'cutouts':
    case 'notches':
      return 0.6;
    case 'compartments':
    case 'cadComponents':
      return 0.5;
    case 'grid':
      return 0;
    case 'labels':
      return 1.2;
  }
}

/** viewer.md §9 grid line widths. */
export const GRID_LINE_WIDTH = { main: 0.5, aux: 0.25 } as const;

/**
 * viewer.md §9 polyline tolerances (0.001 and 1e-6 in metres), in mm; and `collinear`: a section curve's
 * point closer than this to the straight line between its neighbours is dropped (the zero-length
 * tolerance: such a point carries no shape, only the triangle edge it was cut from).
 */
export const POLYLINE_TOLERANCE_MM = { closed: 1, zeroLength: 1e-3, collinear: 1e-3 } as const;

/** Section name (viewer.md §3 "Ship section"): axis + '=' + upper-cased location, e.g. 'X=#10+0.1'. */
export function sectionName(axis: SectionAxis, location: string): string {
  return `${axis}=${location.toUpperCase()}`;
}

/**
 * Label of an intersected plate (viewer.md §9): the length rounded to an integer, then ' x ', then the
 * thickness (mm, integer when whole, else one decimal). Example: `plateLabel(1234.6, 12)` → '1235 x 12'.
 */
export function plateLabel(lengthMm: number, thicknessMm: number): string {
  const t =
    Math.abs(thicknessMm - Math.round(thicknessMm)) < 0.05 ? String(Math.round(thicknessMm)) : thicknessMm.toFixed(1);
  return `${Math.round(lengthMm)} x ${t}`;
}
