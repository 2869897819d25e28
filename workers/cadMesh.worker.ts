/**
 * CAD conversion worker for the mesh formats read with three.js's loaders: STL, glTF/GLB, OBJ (piscina entry,
 * ARCHITECTURE.md "workers/ — thin entry points"). Its threads are shared and reused.
 */
import { cadTask } from '../api/cad/cadTask';
import { readMeshFormat } from '../api/cad/readMesh';

export default cadTask(readMeshFormat);
