/**
 * Writing bench/README.md from a bench run: the suites put their tables in as plain markdown, and the
 * file is then formatted by the repo's formatter (biome), so a run leaves the lint check of CI clean.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** bench/README.md. */
export const BENCH_README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'README.md');

/**
 * Writes `text` as bench/README.md and formats it (tables aligned). A formatter that cannot run leaves the
 * text as written, with one line on stderr; the bench's figures are not lost for it.
 */
export async function writeBenchReadme(text: string): Promise<void> {
  await writeFile(BENCH_README, text);
  const root = path.resolve(path.dirname(BENCH_README), '..');
  const r = spawnSync('npx', ['biome', 'format', '--write', BENCH_README], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0)
    console.error(`bench: bench/README.md written but not formatted (${(r.stderr || r.error?.message || '').trim()})`);
}
