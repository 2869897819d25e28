/**
 * The body of the CAD conversion workers (workers/cad*.worker.ts): reads the file, runs one format's reader
 * and answers the conversion with its typed arrays transferred, or the message of a CadConversionError
 * (errors lose their class when they cross threads). Each worker entry imports only its own reader, so a
 * thread starts without loading the other formats' libraries.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { cadFormatOf } from './formats';
import { conversionBuffers } from './meshes';
import { type CadConversion, CadConversionError, type CadFormat } from './types';

/** A conversion task sent to a CAD worker. */
export interface CadTask {
  filePath: string;
}

/** What a CAD worker answers for one file. */
export type CadTaskResult = { ok: true; conversion: CadConversion } | { ok: false; message: string };

/** A format reader: the file's name (no directories), its format and bytes. */
export type CadReader = (
  fileName: string,
  format: CadFormat,
  bytes: Uint8Array,
) => CadConversion | Promise<CadConversion>;

/** The piscina task function of a worker that converts with `read`. */
export function cadTask(read: CadReader): (task: CadTask) => Promise<CadTaskResult> {
  return async ({ filePath }) => {
    const fileName = path.basename(filePath);
    let result: CadTaskResult;
    try {
      const bytes = new Uint8Array(await readFile(filePath));
      result = { ok: true, conversion: await read(fileName, cadFormatOf(fileName), bytes) };
    } catch (e) {
      if (!(e instanceof CadConversionError)) throw e;
      return { ok: false, message: e.message.slice(e.fileName.length + 2) };
    }
    return move({
      [transferableSymbol]: conversionBuffers(result.conversion),
      [valueSymbol]: result,
    }) as unknown as CadTaskResult;
  };
}
