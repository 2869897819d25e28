/**
 * CAD conversion worker entry (piscina; ARCHITECTURE.md "workers/ — thin entry points"): runs
 * api/cad/readCad in a worker thread and answers the conversion with its typed arrays transferred, or the
 * message of a CadConversionError (errors lose their class when they cross threads).
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { readCadFile } from '../api/cad/readCad';
import { conversionBuffers } from '../api/cad/meshes';
import { type CadConversion, CadConversionError } from '../api/cad/types';

/** What the worker answers for one file. */
export type CadWorkerResult = { ok: true; conversion: CadConversion } | { ok: false; message: string };

export default async function convertCad(task: { filePath: string }): Promise<CadWorkerResult> {
  let result: CadWorkerResult;
  try {
    result = { ok: true, conversion: await readCadFile(task.filePath) };
  } catch (e) {
    if (!(e instanceof CadConversionError)) throw e;
    return { ok: false, message: e.message.slice(e.fileName.length + 2) };
  }
  return move({
    [transferableSymbol]: conversionBuffers(result.conversion),
    [valueSymbol]: result,
  }) as unknown as CadWorkerResult;
}
