/**
 * `npm run ocx:check -- FILE...`: imports each OCX file, prints per file a table of
 * every part that carries the design system's own figures (part, quantity, vendor value, computed
 * value, deviation) and ends with one summary line per file:
 * `FILE: parts=N compared=M weight_within_1pct=P% area_within_1pct=Q% cog_within_10mm=R% warnings=W errors=E`.
 * Deviations listed in engine/ocx/expectedDeviations.ts (proven errors of the files) are applied: they
 * are counted as within the target (explained), marked 'explained' in the table and printed with their
 * reasons before the summary line; a listed deviation that is no longer outside the target is reported
 * as stale. The open importer gaps of engine/ocx/openImporterGaps.ts are printed as "open importer gap"
 * lines and stay counted as outside the target. A line names the writer's conventions the file was
 * compared under (engine/ocx/cogConventions.ts).
 * Options: `--summary` prints only the summary lines. Exit code 0 when every file meets the targets of
 * engine/ocx/fidelity.ts, 1 when one does not, 2 on bad usage.
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importOcxFile } from '../engine/node/ocx/importFile';
import {
  FIDELITY_TARGETS,
  fidelityTable,
  meetsTargets,
  refusedSummary,
  summarizeFidelity,
  summaryLine,
  type FidelitySummary,
} from '../engine/ocx/fidelity';
import { conventionsLine } from '../engine/ocx/cogConventions';
import {
  type DeviationQuantity,
  exclusionsOf,
  expectedDeviationsOf,
  type ExpectedDeviation,
} from '../engine/ocx/expectedDeviations';
import { type ImporterGap, importerGapsOf } from '../engine/ocx/openImporterGaps';
import type { ImportResult } from '../engine/model/types';

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
    const excluded = exclusionsOf(file);
    summary = summarizeFidelity(result, excluded);
    if (tableToo) {
      lines.push(`== ${file}`);
      lines.push(...fidelityTable(result, excluded));
      for (const w of result.warnings)
        lines.push(`warning ${w.code}${w.line ? ` (line ${w.line})` : ''}: ${w.message}`);
    }
    lines.push(...explainedLines(file, result, expectedDeviationsOf(file)));
    lines.push(...gapLines(file, result, importerGapsOf(file)));
    lines.push(conventionsLine(file, result.cogConventions));
  } catch (e) {
    summary = refusedSummary();
    lines.push(`${file}: error: ${(e as Error).message}`);
  }
  lines.push(summaryLine(file, summary));
  return { file, lines, summary };
}

/** Deviation of one quantity of a part, or undefined when it was not compared. */
function deviationOf(result: ImportResult, d: { part: string; quantity: DeviationQuantity }): number | undefined {
  const r = result.fidelity?.find((f) => f.id === d.part);
  return d.quantity === 'W' ? r?.weightDevPct : d.quantity === 'AREA' ? r?.areaDevPct : r?.cogDevMm;
}

/**
 * The explained deviations of a file, one line each with its measured deviation, kind and reason; a
 * listed part that is within the target (or not compared) is printed as stale.
 */
export function explainedLines(file: string, result: ImportResult, rows: ExpectedDeviation[]): string[] {
  const out: string[] = [];
  for (const d of rows) {
    const dev = deviationOf(result, d);
    const limit =
      d.quantity === 'W'
        ? FIDELITY_TARGETS.weightPct
        : d.quantity === 'AREA'
          ? FIDELITY_TARGETS.areaPct
          : FIDELITY_TARGETS.cogMm;
    const shown =
      dev === undefined ? 'not compared' : d.quantity === 'COG' ? `${dev.toFixed(1)} mm` : `${dev.toFixed(2)}%`;
    if (dev === undefined || dev <= limit)
      out.push(
        `${file}: stale expected deviation ${d.part} ${d.quantity} (${shown}): remove it from engine/ocx/expectedDeviations.ts`,
      );
    else
      out.push(
        `${file}: explained ${d.part} ${d.quantity} ${shown} (documented error of the file, proof ${d.proof}): ${d.reason}`,
      );
  }
  return out;
}

/** The limit of a quantity (FIDELITY_TARGETS). */
function limitOf(q: DeviationQuantity): number {
  return q === 'W' ? FIDELITY_TARGETS.weightPct : q === 'AREA' ? FIDELITY_TARGETS.areaPct : FIDELITY_TARGETS.cogMm;
}

/**
 * The open importer gaps of a file (engine/ocx/openImporterGaps.ts), one line each with its measured
 * deviation and the missing capability; a gap that no longer deviates is printed as closed (remove it).
 */
export function gapLines(file: string, result: ImportResult, rows: ImporterGap[]): string[] {
  return rows.map((g) => {
    const dev = deviationOf(result, g);
    const shown =
      dev === undefined ? 'not compared' : g.quantity === 'COG' ? `${dev.toFixed(1)} mm` : `${dev.toFixed(2)}%`;
    return dev === undefined || dev <= limitOf(g.quantity)
      ? `${file}: closed open importer gap ${g.part} ${g.quantity} (${shown}): remove it from engine/ocx/openImporterGaps.ts`
      : `${file}: open importer gap ${g.part} ${g.quantity} ${shown}: ${g.capability}`;
  });
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
