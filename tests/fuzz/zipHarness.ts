/**
 * The zip upload fuzz harness (tests/fuzz/Zip.fuzz.test.ts, bench/fuzz): each mutated archive
 * (tests/fuzz/zipMutations.ts) is extracted by api/conversion/unzip.ts as an upload is, and its ending
 * classified:
 *   extracted — one file, inside the extraction directory, no larger than the cap;
 *   refused   — ZipArchiveError with a message, and nothing left in the extraction directory;
 *   escaped   — a file written outside the extraction directory, or past the cap;
 *   leftover  — refused, but files were left behind;
 *   crash     — any other error (the server would answer 500); hang — past the time bound.
 * The last four are findings.
 */
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { extractSingleOcxFromZip, ZipArchiveError } from '../../api/conversion/unzip';
import { type ZipSources, zipCase } from './zipMutations';

/** Outcome classes of an archive; the last four are findings. */
export type ZipClass = 'extracted' | 'refused' | 'escaped' | 'leftover' | 'crash' | 'hang';
export const ZIP_FINDINGS: readonly ZipClass[] = ['escaped', 'leftover', 'crash', 'hang'];

/** One archive's ending. */
export interface ZipResult {
  seed: number;
  ops: string[];
  bytes: number;
  kind: ZipClass;
  message: string;
  ms: number;
}

/** Every file under `dir`, relative. */
async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  } catch {
    return [];
  }
}

/**
 * Extracts the archives of `seeds` one after another, each in a fresh directory of its own (the archive
 * beside the extraction directory, so a file escaping it is seen).
 * @param maxBytes the extraction cap (the bombs unpack past it).
 * @param hangMs an extraction still running after this long is a hang.
 */
export async function runZipFuzz(
  seeds: readonly number[],
  sources: ZipSources,
  maxBytes: number,
  hangMs: number,
  onResult?: (r: ZipResult) => void,
): Promise<ZipResult[]> {
  const results: ZipResult[] = [];
  for (const seed of seeds) {
    const c = zipCase(seed, sources);
    const root = await mkdtemp(path.join(os.tmpdir(), 'keelson-zipfuzz-'));
    const jail = path.join(root, 'a', 'b');
    await mkdir(jail, { recursive: true });
    const zip = path.join(jail, 'upload.zip');
    const outDir = path.join(jail, 'out');
    await writeFile(zip, c.bytes);
    const started = performance.now();
    let kind: ZipClass;
    let message = '';
    let timer: NodeJS.Timeout | undefined;
    try {
      const out = await Promise.race([
        extractSingleOcxFromZip(zip, outDir, maxBytes),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(Object.assign(new Error(`no end after ${hangMs} ms`), { name: 'Hang' })),
            hangMs,
          );
        }),
      ]);
      const inside = path.dirname(path.resolve(out)) === outDir;
      const size = (await stat(out)).size;
      kind = inside && size <= maxBytes ? 'extracted' : 'escaped';
      message = `${path.relative(root, out)}: ${size} B`;
    } catch (e) {
      const err = e as Error;
      message = `${err.name}: ${err.message}`;
      if (err.name === 'Hang') kind = 'hang';
      else if (err instanceof ZipArchiveError && err.message.length > 0)
        kind = (await filesUnder(outDir)).length ? 'leftover' : 'refused';
      else kind = 'crash';
    } finally {
      clearTimeout(timer);
    }
    const stray = (await filesUnder(root)).filter(
      (f) => !f.startsWith(path.join('a', 'b', 'out')) && f !== path.join('a', 'b', 'upload.zip'),
    );
    if (stray.length) {
      kind = 'escaped';
      message = `files outside the extraction directory: ${stray.join(', ')}`;
    }
    await rm(root, { recursive: true, force: true });
    const r = {
      seed,
      ops: c.ops,
      bytes: c.bytes.length,
      kind,
      message: message.slice(0, 500),
      ms: performance.now() - started,
    };
    results.push(r);
    onResult?.(r);
  }
  return results;
}

/** A zip finding as one line (seed and what the archive was). */
export function describeZip(r: ZipResult): string {
  return `seed ${r.seed} (${r.ops.join(' + ')}; ${r.bytes} B) → ${r.kind}: ${r.message}`;
}
