/**
 * The goals bench's table and configuration (bench/goals/goalsTable.ts, goalsConfig.ts): median,
 * min and max over runs, the goal test, the markdown row and the README section replaced in place.
 */
import { describe, expect, it } from 'vitest';
import { goalsConfig } from '../../bench/goals/goalsConfig';
import {
  GOALS_HEADING,
  type GoalRow,
  formatGoalsTable,
  meets,
  replaceGoalsSection,
  spread,
} from '../../bench/goals/goalsTable';

describe('spread', () => {
  it('gives the median (mean of the middle two for an even count), min and max of the finite values', () => {
    expect(spread([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, n: 3 });
    expect(spread([4, 1, 3, 10])).toEqual({ median: 3.5, min: 1, max: 10, n: 4 });
    expect(spread([2, Number.NaN, 6])).toEqual({ median: 4, min: 2, max: 6, n: 2 });
    expect(spread([Number.NaN]).n).toBe(0);
    expect(spread([]).median).toBeNaN();
  });
});

describe('meets', () => {
  it('judges at-least, at-most and below goals and leaves reported or missing figures open', () => {
    expect(meets({ kind: 'atLeast', value: 30 }, 30)).toBe(true);
    expect(meets({ kind: 'atLeast', value: 30 }, 29.9)).toBe(false);
    expect(meets({ kind: 'atMost', value: 12 }, 12)).toBe(true);
    expect(meets({ kind: 'atMost', value: 12 }, 12.01)).toBe(false);
    expect(meets({ kind: 'below', value: 25 }, 25)).toBe(false);
    expect(meets({ kind: 'below', value: 25 }, 0.5)).toBe(true);
    expect(meets({ kind: 'report' }, 3)).toBeNull();
    expect(meets({ kind: 'atLeast', value: 1 }, Number.NaN)).toBeNull();
  });
});

describe('formatGoalsTable', () => {
  it('prints the medians, the result spread, the run count, the goal and whether the median meets it', () => {
    const rows: GoalRow[] = [
      {
        figure: 'orbit',
        keelson: [100, 120, 90],
        baseline: [1000, 1100, 1000],
        result: [10, 9.17, 11.11],
        unit: '×',
        goal: { kind: 'atLeast', value: 10 },
        digits: 1,
      },
      {
        figure: 'snap',
        keelson: [],
        baseline: [],
        result: [20, 17],
        unit: 'ms',
        goal: { kind: 'atMost', value: 16 },
        digits: 2,
      },
    ];
    const lines = formatGoalsTable(rows).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe('| orbit | 100.0 | 1,000.0 | 10.0× | 9.2 | 11.1 | 3 | ≥ 10× | **met** |');
    expect(lines[3]).toBe('| snap |  |  | 18.50 | 17.00 | 20.00 | 2 | ≤ 16 ms | not met |');
  });
});

describe('replaceGoalsSection', () => {
  const section = `${GOALS_HEADING}\n\nnew table\n`;
  it('inserts the section after the title on the first run', () => {
    const out = replaceGoalsSection('# Benchmarks\n\n## Viewer\n\nold\n', section);
    expect(out).toBe(`# Benchmarks\n\n${GOALS_HEADING}\n\nnew table\n\n## Viewer\n\nold\n`);
  });
  it('replaces only its own section on later runs', () => {
    const before = `# Benchmarks\n\n${GOALS_HEADING}\n\nold table\n\n## Viewer\n\nkept\n`;
    const out = replaceGoalsSection(before, section);
    expect(out).toBe(`# Benchmarks\n\n${GOALS_HEADING}\n\nnew table\n\n## Viewer\n\nkept\n`);
    expect(replaceGoalsSection(out, section)).toBe(out);
  });
});

describe('goalsConfig', () => {
  it("defaults to the issue's sizes, BENCH_GOALS_QUICK to small ones, and an explicit size wins", () => {
    const full = goalsConfig({});
    expect(full).toMatchObject({ runs: 3, orbitParts: 500_000, sectionParts: 500_000, snapParts: 100_000 });
    expect(full).toMatchObject({ smallParts: 10_000, bigParts: 2_000_000, bigRuns: 1, quick: false });
    const quick = goalsConfig({ BENCH_GOALS_QUICK: '1', BENCH_GOALS_SNAP_PARTS: '20000' });
    expect(quick).toMatchObject({ runs: 2, orbitParts: 10_000, snapParts: 20_000, bigParts: 5_000, quick: true });
    expect(goalsConfig({ BENCH_GOALS_BIG_PARTS: '0' }).bigParts).toBe(0);
  });
  it('refuses a value that is not a whole number in range, naming the variable', () => {
    expect(() => goalsConfig({ BENCH_RUNS: '-1' })).toThrow(/BENCH_RUNS must be an integer ≥ 0, got "-1"/);
    expect(() => goalsConfig({ BENCH_GOALS_BIG_RUNS: '0' })).toThrow(/BENCH_GOALS_BIG_RUNS must be an integer ≥ 1/);
    expect(() => goalsConfig({ BENCH_GOALS_ORBIT_PARTS: '1e5x' })).toThrow(/BENCH_GOALS_ORBIT_PARTS/);
    expect(() => goalsConfig({ BENCH_GOALS_PICK_PARTS: '2.5' })).toThrow(/BENCH_GOALS_PICK_PARTS/);
  });
});
