/**
 * The goals table of `npm run bench`: one row per goal with Keelson's and the baseline's
 * medians, the result (a ratio of the two measured in the same run, or a figure) as median, min and max over
 * the runs, the goal and whether the median meets it. Pure: figures in, markdown out; and the README
 * section replaced in place (bench/README.md keeps every other section).
 */

/** How a goal is judged: result ≥ value, result ≤ value, result < value, or reported only. */
export type GoalTest = { kind: 'atLeast' | 'atMost' | 'below'; value: number } | { kind: 'report' };

/** One row: per-run values (NaN where a run had no figure). */
export interface GoalRow {
  figure: string;
  /** Keelson's own figure per run (e.g. ms), or empty. */
  keelson: number[];
  /** The baseline's figure per run, or empty. */
  baseline: number[];
  /** The judged result per run (a ratio baseline ÷ Keelson, or the figure itself). */
  result: number[];
  unit: string;
  goal: GoalTest;
  /** Decimals of the printed figures. */
  digits: number;
  /** Decimals of the result, min and max when they differ from `digits` (ratios of small figures). */
  resultDigits?: number;
}

/** Median, min and max of the finite values (NaN for none); the median of an even count is the mean of the middle two. */
export function spread(values: number[]): { median: number; min: number; max: number; n: number } {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const m = v.length >> 1;
  return { median: v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2, min: v[0], max: v[v.length - 1], n: v.length };
}

/** Whether `value` meets `goal`: true, false, or null when reported only or not measured. */
export function meets(goal: GoalTest, value: number): boolean | null {
  if (goal.kind === 'report' || !Number.isFinite(value)) return null;
  if (goal.kind === 'atLeast') return value >= goal.value;
  if (goal.kind === 'atMost') return value <= goal.value;
  return value < goal.value;
}

function goalText(g: GoalTest, unit: string): string {
  if (g.kind === 'report') return 'reported';
  const op = g.kind === 'atLeast' ? '≥' : g.kind === 'atMost' ? '≤' : '<';
  return `${op} ${g.value.toLocaleString('en-US')}${unit === '×' ? '×' : ` ${unit}`}`;
}

function num(v: number, digits: number): string {
  if (!Number.isFinite(v)) return '–';
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The rows as a markdown table. */
export function formatGoalsTable(rows: GoalRow[]): string {
  const lines = [
    '| figure | Keelson (median) | baseline (median) | result (median) | min | max | runs | goal | met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const r of rows) {
    const s = spread(r.result);
    const k = spread(r.keelson),
      b = spread(r.baseline);
    const met = meets(r.goal, s.median);
    const u = r.unit === '×' ? '×' : '';
    const d = r.resultDigits ?? r.digits;
    lines.push(
      `| ${r.figure} | ${r.keelson.length ? num(k.median, r.digits) : ''} | ${r.baseline.length ? num(b.median, r.digits) : ''} | ` +
        `${num(s.median, d)}${Number.isFinite(s.median) ? u : ''} | ${num(s.min, d)} | ${num(s.max, d)} | ${s.n} | ` +
        `${goalText(r.goal, r.unit)} | ${met === null ? '–' : met ? '**met**' : 'not met'} |`,
    );
  }
  return lines.join('\n');
}

/** Heading of the goals section in bench/README.md (the section runs to the next `## `). */
export const GOALS_HEADING = '## Performance goals (`npm run bench`)';

/**
 * `readme` with the goals section replaced by `section` (which starts with GOALS_HEADING), or the section
 * inserted first, right after the document's `# ` title.
 */
export function replaceGoalsSection(readme: string, section: string): string {
  const body = `${section.trimEnd()}\n\n`;
  const start = readme.indexOf(GOALS_HEADING);
  if (start >= 0) {
    const next = readme.indexOf('\n## ', start + GOALS_HEADING.length);
    return readme.slice(0, start) + body + (next >= 0 ? readme.slice(next + 1) : '');
  }
  const title = readme.match(/^# .*\n+/);
  const at = title ? title[0].length : 0;
  return readme.slice(0, at) + body + readme.slice(at);
}
