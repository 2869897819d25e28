/**
 * Converts one CAD file in the calling thread (benchmarks, tools): the readers the CAD workers run
 * (workers/cad*.worker.ts), chosen by the file's format. The server converts with convertCadFile
 * (api/cad/convertCad.ts) instead, in threads with a time and a memory bound. Node-only.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cadFormatOf, OCCT_FORMATS } from './formats';
import { readIfc } from './readIfc';
import { readMeshFormat } from './readMesh';
import { readOcct } from './readOcct';
import type { CadConversion } from './types';

/**
 * Reads and converts the CAD file at `filePath` in this thread (no time or memory bound).
 * @throws CadConversionError for an unsupported format or a file that cannot be read as its format;
 *   other errors (I/O) as they come.
 */
export async function readCadFile(filePath: string): Promise<CadConversion> {
  const fileName = path.basename(filePath);
  const format = cadFormatOf(fileName);
  const bytes = new Uint8Array(await readFile(filePath));
  if (OCCT_FORMATS.includes(format)) return readOcct(fileName, format, bytes);
  if (format === '.ifc') return readIfc(fileName, bytes);
  return readMeshFormat(fileName, format, bytes);
}
