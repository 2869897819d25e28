/**
 * Hands a stored original to its reserved conversion, the same for every source of a project (upload,
 * server directory, other Keelson server, scheduled update; application.md §4 "Model conversion"): a .zip
 * has its single OCX entry extracted first, so a bad archive is refused with 400; any failure withdraws
 * the reservation and removes what was written.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ServerConfig } from '../config';
import { Errors } from '../errors';
import type { ConversionManager } from './ConversionManager';
import { extractSingleOcxFromZip, isZipFile, maxUnpackedBytes, ZipArchiveError } from './unzip';

/** DATA_DIR/uploads/{conversionId}-{file name with unsafe characters replaced}: where originals are kept. */
export function storedOriginalPath(dataDir: string, conversionId: string, fileName: string): string {
  return path.join(dataDir, 'uploads', `${conversionId}-${path.basename(fileName).replace(/[^\w.-]/g, '_')}`);
}

/**
 * Withdraws reservation `conversionId` after storing or starting its original failed with `error`: removes
 * `paths` (files or directories, each a no-op when absent) and then frees the name, also when a removal
 * fails (a broken uploads directory must not keep the name locked until a restart); `warn` gets the paths
 * left on disk.
 * @returns the error to answer with: `error`, or, when a cancel withdrew the reservation meanwhile (which
 *   is what ended the storing), 404 as for an upload withdrawn just after it was stored.
 */
export async function withdrawStored(
  conversions: Pick<ConversionManager, 'release' | 'isActive'>,
  conversionId: string,
  paths: string[],
  error: unknown,
  warn?: (left: string[]) => void,
): Promise<unknown> {
  // A cancel while the file is stored withdraws the reservation at once (here or, through the heartbeat,
  // from another process): it is then no longer held here.
  const cancelled = !conversions.isActive(conversionId);
  const left: string[] = [];
  for (const p of paths) await rm(p, { recursive: true, force: true }).catch(() => left.push(p));
  await conversions.release(conversionId);
  if (left.length) warn?.(left);
  return cancelled ? Errors.conversionNotFound(conversionId) : error;
}

/**
 * Starts the conversion `conversionId` of the original at `stored` (kept as the revision's original).
 * A conversion cancelled meanwhile keeps nothing.
 * @throws ApiError 400 for a bad archive (the reservation is released and the files removed).
 */
export async function startStoredConversion(
  conversions: ConversionManager,
  config: Pick<ServerConfig, 'dataDir' | 'maxUploadMb' | 'maxUnpackedMb'>,
  conversionId: string,
  stored: string,
  opts: { description: string; replace: boolean; waitForCadFiles?: boolean },
): Promise<void> {
  let input = stored;
  let scratch: string | null = null;
  try {
    if (path.extname(stored).toLowerCase() === '.zip' || (await isZipFile(stored))) {
      scratch = path.join(config.dataDir, 'uploads', `${conversionId}-extracted`);
      input = await extractSingleOcxFromZip(
        stored,
        scratch,
        maxUnpackedBytes(config.maxUploadMb, config.maxUnpackedMb),
      );
    }
  } catch (e) {
    const error = await withdrawStored(conversions, conversionId, scratch ? [stored, scratch] : [stored], e);
    throw error instanceof ZipArchiveError ? Errors.badArchive(error.message) : error;
  }
  if (!conversions.isActive(conversionId)) {
    await rm(stored, { force: true });
    if (scratch) await rm(scratch, { recursive: true, force: true });
    return;
  }
  conversions.start(conversionId, {
    input,
    original: scratch ? stored : undefined,
    scratch: scratch ? [scratch] : [],
    description: opts.description,
    replace: opts.replace,
    deleteInputOnFailure: true,
    waitForCadFiles: opts.waitForCadFiles === true,
  });
}
