/**
 * CAD conversion worker for IFC (web-ifc; piscina entry, ARCHITECTURE.md "workers/ — thin entry points").
 * Its thread ends after one file: web-ifc's wasm heap never shrinks.
 */
import { cadTask } from '../api/cad/cadTask';
import { readIfc } from '../api/cad/readIfc';

export default cadTask((fileName, _format, bytes) => readIfc(fileName, bytes));
