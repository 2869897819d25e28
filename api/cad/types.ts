/**
 * The shapes CAD conversion hands to the revision package (application.md §5 "Upload and project files";
 * viewer.md §3 CAD COMPONENT). A CAD file (STEP, IGES, BREP, IFC, STL, glTF/GLB, OBJ) becomes one
 * component with one or more named meshes; lengths are millimetres in the model's coordinate system (the
 * file's own unit converted), triangles indexed. Node-only (the converters run in server worker threads).
 */

/** The formats Keelson converts, by lower-case file extension (with the dot); defined with the contract. */
import { CAD_FORMATS } from '../contract/cad';
export { CAD_FORMATS };
export type CadFormat = (typeof CAD_FORMATS)[number];

/** One mesh of a component: a STEP product / IFC product / glTF node, or the whole file when it has no parts. */
export interface CadMesh {
  /** The file's own name for this part ('' when it has none). */
  name: string;
  /**
   * x, y, z per vertex, mm, in the file's frame after unit conversion (Z-up: glTF's Y-up is turned to Z-up,
   * web-ifc's Y-up back to the IFC file's Z-up).
   */
  positions: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
  /** sRGB 0..1 colour the file gives the part, or null. */
  color: [number, number, number] | null;
  /**
   * The file's own identifier of the part when it has one (IFC GlobalId): several meshes of one part (one per
   * colour) share it, and parts with the same name differ by it. Absent for formats without one.
   */
  sourceId?: string;
}

/** The result of converting one CAD file. */
export interface CadConversion {
  /** The file name as uploaded (no directories). */
  fileName: string;
  format: CadFormat;
  meshes: CadMesh[];
  /** Total triangles over all meshes. */
  triangles: number;
  /** [minX, minY, minZ, maxX, maxY, maxZ] mm over all meshes; null when there are none. */
  bounds: [number, number, number, number, number, number] | null;
  /** Things a user should know (e.g. 'assembly refers to parts in other files; no geometry'). */
  warnings: string[];
}

/** Why a CAD file could not be converted: names the file and what is wrong (shown to the user as is). */
export class CadConversionError extends Error {
  constructor(
    readonly fileName: string,
    message: string,
  ) {
    super(`${fileName}: ${message}`);
    this.name = 'CadConversionError';
  }
}
