/**
 * Converts one CAD file in the calling thread: reads the bytes and hands them to the reader of the file's
 * format (issue "CAD components" §2 "Conversion"). The converters run in worker threads (api/cad/convertCad.ts,
 * workers/cad.worker.ts); this module is the part those threads run. The wasm readers compile their wasm
 * only when a file of theirs comes (a thread converting STL never loads OpenCascade's). Node-only.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cadFormatOf, OCCT_FORMATS } from './formats';
import { readOcct } from './readOcct';
import { readStl } from './readStl';
import { type CadConversion, CadConversionError } from './types';

/**
 * Reads and converts the CAD file at `filePath`.
 * @throws CadConversionError for an unsupported format or a file that cannot be read as its format;
 *   other errors (I/O) as they come.
 */
export async function readCadFile(filePath: string): Promise<CadConversion> {
  const fileName = path.basename(filePath);
  const format = cadFormatOf(fileName);
  const bytes = new Uint8Array(await readFile(filePath));
  if (format === '.stl') return readStl(fileName, bytes);
  if (OCCT_FORMATS.includes(format)) return readOcct(fileName, format, bytes);
  throw new CadConversionError(fileName, `${format} conversion is not available yet`);
}
