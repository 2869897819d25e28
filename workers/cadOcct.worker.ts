/**
 * CAD conversion worker for STEP, IGES and BREP (OpenCascade; piscina entry, ARCHITECTURE.md "workers/ —
 * thin entry points"). Its thread ends after one file: OpenCascade's wasm heap never shrinks.
 */
import { cadTask } from '../api/cad/cadTask';
import { readOcct } from '../api/cad/readOcct';

export default cadTask(readOcct);
