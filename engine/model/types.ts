/**
 * The converted model: Keelson's contract between the OCX importer (engine/ocx), the scene package
 * writer (engine/package), the server (api/) and the viewer (engine/scene, ui/).
 *
 * Units: every length in this file is in millimetres (the viewer's unit, viewer.md §3 "Model units")
 * unless a field says otherwise. Property values (PropertyRecord) follow the property catalogue's
 * units (metres, m², m³, tonnes; see engine/model/properties.ts), because the API answers in metres.
 */

/** Model object types of viewer.md §3, plus PILLAR (OCX Pillar, drawn in sections as centreline and outline). */
export const OBJECT_TYPES = [
  'MAIN OBJECT',
  'MAIN OBJECT SECTION',
  'PLATE',
  'STIFFENER',
  'SEAM',
  'BRACKET',
  'OPENING',
  'HOLE',
  'CUTOUT',
  'NOTCH',
  'COLLAR PLATE',
  'BLOCK',
  'COMPARTMENT',
  'CAD COMPONENT',
  'CAD COMPONENT SECTION',
  'STRUCTURE ARRANGEMENT',
  'COMPARTMENT ARRANGEMENT',
  'PILLAR',
] as const;

/** One of the model object types (viewer.md §3). */
export type ObjectType = (typeof OBJECT_TYPES)[number];

/** Short codes of viewer.md §3 ("P, S, V (seam), B, O, H, C, CP, N, BLOCK, STR*, ARR*, @"). */
export const OBJECT_TYPE_CODES: Readonly<Record<ObjectType, string>> = {
  'MAIN OBJECT': 'MO',
  'MAIN OBJECT SECTION': 'MOS',
  PLATE: 'P',
  STIFFENER: 'S',
  SEAM: 'V',
  BRACKET: 'B',
  OPENING: 'O',
  HOLE: 'H',
  CUTOUT: 'C',
  NOTCH: 'N',
  'COLLAR PLATE': 'CP',
  BLOCK: 'BLOCK',
  COMPARTMENT: 'ARR*',
  'CAD COMPONENT': '@',
  'CAD COMPONENT SECTION': '@S',
  'STRUCTURE ARRANGEMENT': 'STR*',
  'COMPARTMENT ARRANGEMENT': 'ARR*',
  PILLAR: 'PIL',
};

/**
 * Parses an object type name; viewer.md §5 "Unknown object type codes raise an error".
 * @throws Error `Unknown object type "{value}"` when the value is not one of OBJECT_TYPES.
 */
export function parseObjectType(value: string): ObjectType {
  const t = value.trim().toUpperCase();
  if ((OBJECT_TYPES as readonly string[]).includes(t)) return t as ObjectType;
  throw new Error(`Unknown object type "${value}"`);
}

/** Axis-aligned box [minX, minY, minZ, maxX, maxY, maxZ] in millimetres. */
export type Box3Tuple = [number, number, number, number, number, number];

/** An empty box (min = +Infinity, max = -Infinity), ready to be grown. */
export function emptyBox(): Box3Tuple {
  return [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
}

/** Grows `box` in place by the xyz triplets in `positions` (mm); returns `box`. */
export function growBox(box: Box3Tuple, positions: ArrayLike<number>): Box3Tuple {
  for (let i = 0; i + 2 < positions.length; i += 3) {
    const x = positions[i],
      y = positions[i + 1],
      z = positions[i + 2];
    if (x < box[0]) box[0] = x;
    if (y < box[1]) box[1] = y;
    if (z < box[2]) box[2] = z;
    if (x > box[3]) box[3] = x;
    if (y > box[4]) box[4] = y;
    if (z > box[5]) box[5] = z;
  }
  return box;
}

/** True when the box has been grown by at least one point. */
export function isBoxValid(b: Box3Tuple): boolean {
  return b[0] <= b[3] && b[1] <= b[4] && b[2] <= b[5];
}

/**
 * One row of the object table. `index` is dense (0..n-1) and is the engine's node id (the spec's
 * hoopsId); `id` is the OCX `@id` (the keelsonId of a selection item, ARCHITECTURE.md "Names").
 */
export interface ModelObject {
  /** Dense index in the object table, 0..n-1; the engine's node id. */
  index: number;
  /** The OCX @id (session key, unique per file); the keelsonId. */
  id: string;
  /** Normalised GUID (upper case, no braces) or null when the file gives none. */
  guid: string | null;
  /** Display name: @name, else trimmed Description, else @id (OCX_GUIDE §7). */
  name: string;
  /** Model object type (viewer.md §3). */
  type: ObjectType;
  /** Local name of the OCX element the object came from: Panel, Plate, Stiffener, Bracket, Pillar, Seam, ... */
  element: string;
  /** Index of the owning object (a plate's panel), or -1 for a root. */
  parent: number;
  /** Block name from DesignView/Occurrence grouping (the first view that references the part), or null. */
  block: string | null;
  /** World bounds in mm of the object's own geometry, or null when it has none (e.g. a panel). */
  bounds: Box3Tuple | null;
}

/** A property value: numbers in the catalogue unit of engine/model/properties.ts, or text. */
export type PropertyValue = number | string;

/** Properties of one object keyed by catalogue code (viewer.md §3 "Property catalogue": PLTH, MAT, W, ...). */
export type PropertyRecord = Record<string, PropertyValue>;

/**
 * Triangles of one part in world millimetres. Vertices of one part are its own (not shared between
 * parts). `edges` holds feature-edge or seam line segments as pairs of xyz points.
 */
export interface PartMesh {
  /** Index of the owning object in the object table. */
  object: number;
  /** xyz triplets, mm. Length 3·V. */
  positions: Float32Array;
  /** Unit normals per vertex, or null to let the consumer compute flat normals. Length 3·V. */
  normals: Float32Array | null;
  /** Triangle vertex indices into positions/3. Length 3·T. */
  indices: Uint32Array;
  /** Line segments (x0 y0 z0 x1 y1 z1)*, mm, or null. Seams have only edges. */
  edges: Float32Array | null;
}

/** A reference plane of a frame table (OCX XRefPlanes/YRefPlanes/ZRefPlanes, OCX_GUIDE §2.2). */
export interface RefPlane {
  /** OCX @id of the RefPlane. */
  id: string;
  /** @name as written (e.g. "FR10", "LO3"). */
  name: string;
  /** Location along the axis, mm. */
  coordinate: number;
  /** Frame / longitudinal / vertical number parsed from the name, or null when the name has none. */
  number: number | null;
}

/** Frame (X), longitudinal (Y) and vertical (Z) reference systems (viewer.md §3), sorted by coordinate. */
export interface FrameTables {
  x: RefPlane[];
  y: RefPlane[];
  z: RefPlane[];
}

/** A non-fatal import problem, counted and shown to the user. */
export interface ImportWarning {
  /** Short stable code, e.g. 'unsupported-element', 'degenerate-contour'. */
  code: string;
  /** Human message naming the part and what is wrong. */
  message: string;
  /** Line in the OCX file, when known. */
  line?: number;
  /** OCX @id of the part concerned, when known. */
  part?: string;
}

/** Information about the whole model, from the OCX Header and Vessel. */
export interface ModelInfo {
  /** Vessel @name, else Header @name, else the file name. */
  name: string;
  /** ocxXML @schemaVersion, e.g. '3.0.0', '3.1.0'. */
  schemaVersion: string;
  /** Header @originating_system, e.g. 'NAPA Steel'. */
  originatingSystem: string;
  /** Header @time_stamp as written. */
  timeStamp: string;
  /** World bounds of all meshes, mm. */
  bounds: Box3Tuple;
  /** Tessellation tolerances used (chordal mm, angular degrees). */
  tolerances: { chordalMm: number; angularDeg: number };
}

/**
 * Agreement of one part's figures computed from the geometry with the design system's own
 * PhysicalProperties / NetArea. Vendor and computed values: weight kg, area m²,
 * volume m³, centre of gravity mm. A deviation is absent when either side is missing.
 */
export interface PartFidelity {
  /** Index of the part in the object table. */
  object: number;
  /** OCX @id of the part. */
  id: string;
  /** Element local name (Plate, Bracket, Stiffener, EdgeReinforcement, Pillar). */
  element: string;
  /** Line of the part element in the OCX file. */
  line: number;
  vendor: { weightKg?: number; areaM2?: number; cogMm?: [number, number, number] };
  /**
   * The figures from the geometry. cogMm is compared: the solid's centroid, or (after the import chose
   * the file's convention) the moulded one; cogMouldedMm is the CoG under the moulded convention (plates:
   * the sheet on its reference surface; profiles: without the plate-thickness shift).
   */
  computed: {
    weightKg?: number;
    areaM2?: number;
    volumeM3?: number;
    cogMm?: [number, number, number];
    cogMouldedMm?: [number, number, number];
    /** Profiles: section area × trace length × ρ (weightKg follows the section centroid's path). */
    weightTraceKg?: number;
    /**
     * Plates: the thickened solid's volume / thickness (m²), the area at mid-thickness; areaM2 is the
     * sheet's on the reference surface. They differ on plates curved to a radius not far above the thickness.
     */
    areaSolidM2?: number;
  };
  /** |computed − vendor| / vendor × 100. */
  weightDevPct?: number;
  /** |computed − vendor| / vendor × 100. */
  areaDevPct?: number;
  /** Distance between the two centres of gravity, mm. */
  cogDevMm?: number;
}

/**
 * The conventions applied to a file's vendor figures. Centre of gravity per kind of part: 'moulded'
 * (plates on their reference surface; profiles from the trace line without the plate-thickness shift)
 * or 'solid' (the steel's centroid), with where each came from: 'data' when the file's own CoGs decided,
 * 'writer' when the header's originating system did (the figures did not tell the two apart).
 */
export interface CogConventions {
  /** Writer family recognised from the header ('NAPA', 'AITAC', 'AVEVA E3D', 'AVEVA Hull', 'other'). */
  writer: string;
  plates: 'moulded' | 'solid';
  platesFrom: 'data' | 'writer';
  profiles: 'moulded' | 'solid';
  profilesFrom: 'data' | 'writer';
  /** Profile weights: along the section centroid's path (Pappus) or section area × trace length. */
  profileWeights: 'centroid-path' | 'trace';
  profileWeightsFrom: 'data' | 'writer';
  /** Plate NetArea and weight: of the sheet on its reference surface, or of the solid (volume / thickness). */
  plateAreas: 'moulded' | 'solid';
  plateAreasFrom: 'data' | 'writer';
}

/**
 * A block system (viewer.md §3 "Block system"): one OCX DesignView with its own name and its blocks, each
 * block with the object-table indices of the parts it holds (ascending). A part is in at most one block of
 * a system; parts of a block may have children (holes, openings) that belong to the block with them.
 */
export interface BlockSystem {
  name: string;
  blocks: { name: string; objects: number[] }[];
}

/** Everything the importer produces for one OCX file. Arrays are parallel: properties[i] is objects[i]'s. */
export interface ImportResult {
  info: ModelInfo;
  objects: ModelObject[];
  properties: PropertyRecord[];
  meshes: PartMesh[];
  frames: FrameTables;
  warnings: ImportWarning[];
  /** Elements the importer does not understand, counted by local name; absent when none. */
  unsupportedElements?: Record<string, number>;
  /** Per-part agreement with the vendor's figures, for parts that carry them. */
  fidelity?: PartFidelity[];
  /** The writer's centre-of-gravity conventions the fidelity records were compared under. */
  cogConventions?: CogConventions;
  /** The file's block systems (its DesignViews), absent when it has none. */
  blockSystems?: BlockSystem[];
}

/** Progress callback: fraction in [0, 1] (monotonic), and a short message. */
export type ProgressFn = (fraction: number, message: string) => void;
