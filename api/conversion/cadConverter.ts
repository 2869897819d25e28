/**
 * The converter of one CAD file that conversions use: api/cad/convertCad.ts (worker threads with a time and
 * a heap bound per file). Node-only.
 */
import { convertCadFile } from '../cad/convertCad';
import type { CadConverter } from './cadComponents';

/** Converts one CAD file into a CadConversion (api/cad/types.ts). */
export const defaultCadConverter: CadConverter = (filePath, opts) => convertCadFile(filePath, opts);
