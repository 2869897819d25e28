/**
 * The converter of one CAD file that conversions use (api/cad/convertCad.ts once it is merged). Until
 * then every file fails with a message saying so, which fails only its component. Node-only.
 */
import path from 'node:path';
import { CadConversionError } from '../cad/types';
import type { CadConverter } from './cadComponents';

/** Converts one CAD file into a CadConversion (api/cad/types.ts). */
export const defaultCadConverter: CadConverter = async (filePath) => {
  throw new CadConversionError(path.basename(filePath), 'CAD conversion is not available on this server');
};
