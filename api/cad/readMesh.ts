/** The mesh formats read with three.js's loaders (STL, OBJ, glTF/GLB), by format. */
import type { CadReader } from './cadTask';
import { readStl } from './readStl';
import { readGltf, readObj } from './readThree';

/** Reads an STL, OBJ, glTF or GLB file's bytes (see readStl, readObj, readGltf). */
export const readMeshFormat: CadReader = (fileName, format, bytes) =>
  format === '.stl'
    ? readStl(fileName, bytes)
    : format === '.obj'
      ? readObj(fileName, bytes)
      : readGltf(fileName, format, bytes);
