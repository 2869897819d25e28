/**
 * `npm run ocx:check -- FILE...` (issue 3 item 3): imports each OCX file, prints per file a table of
 * every part that carries the design system's own figures (part, quantity, vendor value, computed
 * value, deviation) and ends with one summary line per file:
 * `FILE: parts=N compared=M weight_within_1pct=P% area_within_1pct=Q% cog_within_10mm=R% warnings=W errors=E`.
 * Options: `--summary` prints only the summary lines. Exit code 0 when every file meets the targets of
 * engine/ocx/fidelity.ts, 1 when one does not, 2 on bad usage.
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importOcxFile } from '../engine/ocx/importFile';
import { fidelityTable, meetsTargets, refusedSummary, summarizeFidelity, summaryLine, type FidelitySummary } from '../engine/ocx/fidelity';

/** Result of checking one file: its printed lines and summary. */
export interface CheckedFile {
  file: string;
  lines: string[];
  summary: FidelitySummary;
}

/**
 * Checks one file. A refused file gives the error message and a summary with errors=1.
 * @param tableToo false prints only the summary line.
 */
export async function checkFile(path: string, tableToo = true): Promise<CheckedFile> {
  const file = basename(path);
  const lines: string[] = [];
  let summary: FidelitySummary;
  try {
    const result = await importOcxFile(path);
    summary = summarizeFidelity(result);
    if (tableToo) {
      lines.push(`== ${file}`);
      lines.push(...fidelityTable(result));
      for (const w of result.warnings) lines.push(`warning ${w.code}${w.line ? ` (line ${w.line})` : ''}: ${w.message}`);
    }
  } catch (e) {
    summary = refusedSummary();
    lines.push(`${file}: error: ${(e as Error).message}`);
  }
  lines.push(summaryLine(file, summary));
  return { file, lines, summary };
}

async function main(argv: string[]): Promise<number> {
  const files = argv.filter((a) => !a.startsWith('--'));
  if (!files.length) {
    process.stderr.write('usage: npm run ocx:check -- [--summary] FILE...\n');
    return 2;
  }
  const tableToo = !argv.includes('--summary');
  let ok = true;
  for (const f of files) {
    const r = await checkFile(f, tableToo);
    process.stdout.write(r.lines.join('\n') + (tableToo ? '\n\n' : '\n'));
    ok &&= meetsTargets(r.summary);
  }
  return ok ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
