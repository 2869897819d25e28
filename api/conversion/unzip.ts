/**
 * Uploads of a zipped OCX file (ARCHITECTURE.md "Names": "optionally zipped"), read with fflate's
 * streaming `Unzip` so the archive is never held in memory: the file is read in 64 KiB chunks, the one
 * .3docx / .ocx / .xml entry is inflated straight to disk (with back-pressure), every other entry is
 * read past. Node-only.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';

const OCX_EXT = /\.(3docx|ocx|xml)$/i;
/** Entries macOS adds to archives it creates (resource forks), never the model. */
const MACOS_META = /(^|\/)__MACOSX\//;
/** Compression methods fflate decodes: 0 stored, 8 deflate. */
const SUPPORTED_METHODS = new Set([0, 8]);
/** At most this many entry names are listed in an error message. */
const MAX_NAMES_LISTED = 10;

/** Default cap of what one archive may unpack to, MB (MAX_UNPACKED_MB): 4 GB, a size a server can hold. */
export const DEFAULT_MAX_UNPACKED_MB = 4096;

/**
 * The largest OCX entry a zip upload may unpack to: 20 × the upload limit (XML compresses about 10–20
 * times), and never more than `maxUnpackedMb` (default DEFAULT_MAX_UNPACKED_MB), so a small archive cannot
 * fill the disk.
 */
export function maxUnpackedBytes(maxUploadMb: number, maxUnpackedMb = DEFAULT_MAX_UNPACKED_MB): number {
  return Math.min(maxUploadMb * 20, maxUnpackedMb) * 1048576;
}

/** The archive's content is unusable (none or several OCX entries, corrupt data, unsupported method). */
export class ZipArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipArchiveError';
  }
}

/** True when the file starts with a ZIP local-file signature (PK\x03\x04). */
export async function isZipFile(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const b = Buffer.alloc(4);
    const { bytesRead } = await fh.read(b, 0, 4, 0);
    return bytesRead === 4 && b.readUInt32LE(0) === 0x04034b50;
  } finally {
    await fh.close();
  }
}

/** "a, b, c and 4 more" (entry names for an error message). */
function listNames(names: string[]): string {
  if (names.length === 0) return 'none';
  const shown = names.slice(0, MAX_NAMES_LISTED).join(', ');
  return names.length > MAX_NAMES_LISTED ? `${shown} and ${names.length - MAX_NAMES_LISTED} more` : shown;
}

/** Longest entry base name written, bytes of UTF-8: the common file-system limit for one path component. */
const MAX_NAME_BYTES = 255;

/**
 * Why an entry's base name cannot be a file name here (what follows "the OCX entry's name"), or null:
 * a NUL or another control character, or more than MAX_NAME_BYTES bytes. Such names are refused rather
 * than altered, so that the model keeps the name it was exported under.
 */
function unusableName(base: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
  const control = /[\u0000-\u001f\u007f]/.exec(base);
  if (control)
    return `holds the control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;
  const bytes = Buffer.byteLength(base);
  if (bytes > MAX_NAME_BYTES) return `is ${bytes} bytes long (at most ${MAX_NAME_BYTES}): ${base.slice(0, 40)}…`;
  return null;
}

/**
 * Extracts the single OCX entry of `zipFile` into `outDir` (created) under the entry's base name.
 * Directories and `__MACOSX/` entries are ignored.
 * @returns the extracted file's absolute path.
 * @throws ZipArchiveError 'The archive holds no .3docx, .ocx or .xml file (entries: a, b)' /
 *   'Nested archives are not supported: a.3docx is itself a zip archive' /
 *   'The archive holds more than one OCX file: a.ocx, b.xml' / 'Unsupported archive: ...' for an
 *   unknown compression method, corrupt or truncated data, or an OCX entry name no file can have (a
 *   control character, more than 255 bytes). Nothing is left in `outDir` on error.
 * @throws Error (not ZipArchiveError) for I/O failures reading the archive or writing the entry.
 */
export async function extractSingleOcxFromZip(
  zipFile: string,
  outDir: string,
  maxBytes = DEFAULT_MAX_UNPACKED_MB * 1048576,
): Promise<string> {
  let written = 0;
  await mkdir(outDir, { recursive: true, mode: 0o700 });
  const entries: string[] = [];
  const ocx: string[] = [];
  let out: string | null = null;
  let ws: WriteStream | null = null;
  let complete = false;
  let failure: ZipArchiveError | null = null;
  let ioError: Error | null = null;

  /** Reads past an entry: started with a no-op handler so fflate does not buffer its data. */
  const skip = (file: UnzipFile) => {
    if (!SUPPORTED_METHODS.has(file.compression)) return;
    file.ondata = () => {};
    file.start();
  };

  const unzip = new Unzip((file) => {
    if (file.name.endsWith('/')) return skip(file);
    entries.push(file.name);
    const isOcx = OCX_EXT.test(file.name) && !MACOS_META.test(file.name);
    if (isOcx) ocx.push(file.name);
    if (!isOcx || ocx.length > 1 || failure) return skip(file);
    if (!SUPPORTED_METHODS.has(file.compression)) {
      failure = new ZipArchiveError(
        `Unsupported archive: ${file.name} uses compression method ${file.compression} (only stored and deflate are supported)`,
      );
      return;
    }
    const bad = unusableName(path.basename(file.name));
    if (bad) {
      failure = new ZipArchiveError(`Unsupported archive: the OCX entry's name ${bad}`);
      return skip(file);
    }
    out = path.join(outDir, path.basename(file.name));
    const stream = createWriteStream(out, { mode: 0o600 });
    ws = stream;
    stream.on('error', (e) => (ioError ??= e));
    file.ondata = (err, data, final) => {
      if (err) {
        failure ??= new ZipArchiveError(`Unsupported archive: ${file.name} cannot be decompressed (${err.message})`);
        return;
      }
      written += data.length;
      // A zip bomb stops here: the entry may not unpack to more than maxBytes.
      if (written > maxBytes) {
        failure ??= new ZipArchiveError(
          `Unsupported archive: ${file.name} unpacks to more than ${Math.floor(maxBytes / 1048576)} MB`,
        );
        file.terminate();
        return;
      }
      if (data.length) stream.write(data);
      if (final) {
        complete = true;
        stream.end();
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);

  /** Feeds fflate; its errors (corrupt or truncated data) become ZipArchiveError. */
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      unzip.push(chunk, final);
    } catch (e) {
      failure ??= new ZipArchiveError(
        `Unsupported archive: the data is corrupt or truncated (${(e as Error).message})`,
      );
    }
  };

  try {
    for await (const chunk of createReadStream(zipFile, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
      push(chunk, false);
      if (failure || ioError) break;
      const w = ws as WriteStream | null;
      if (w?.writableNeedDrain) await once(w, 'drain');
    }
    if (!failure && !ioError) push(new Uint8Array(0), true);
    const w = ws as WriteStream | null;
    if (w) {
      if (!w.writableEnded) w.end();
      await finished(w).catch((e: Error) => (ioError ??= e));
    }
    if (ioError) throw ioError;
    if (failure) throw failure;
    if (ocx.length === 0)
      throw new ZipArchiveError(`The archive holds no .3docx, .ocx or .xml file (entries: ${listNames(entries)})`);
    if (ocx.length > 1) throw new ZipArchiveError(`The archive holds more than one OCX file: ${listNames(ocx)}`);
    if (!complete || !out) throw new ZipArchiveError(`Unsupported archive: ${ocx[0]} is truncated`);
    // An archive inside the archive would be unpacked again, past the cap: refused.
    if (await isZipFile(out))
      throw new ZipArchiveError(`Nested archives are not supported: ${ocx[0]} is itself a zip archive`);
    return out;
  } catch (e) {
    if (out) await rm(out, { force: true });
    throw e;
  }
}
