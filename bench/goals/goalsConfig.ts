/**
 * Sizes and repeats of the goals bench (`npm run bench`), from the environment:
 *   BENCH_RUNS                 runs per figure (median, min, max); default 3, quick 2; 0 = the big ship only
 *   BENCH_GOALS_ORBIT_PARTS    orbit, draw calls, bytes per triangle, first triangles; default 500000
 *   BENCH_GOALS_SECTION_PARTS  sections X/Y/Z against the linear scan, WASM vs TypeScript kernels; default 500000
 *   BENCH_GOALS_PICK_PARTS     picking against the Raycaster without BVH; default 500000
 *   BENCH_GOALS_SNAP_PARTS     snap under the cursor; default 100000
 *   BENCH_GOALS_SMALL_PARTS    still frame and box selection against the baseline; default 10000
 *   BENCH_GOALS_BIG_PARTS      the big ship opened in Chromium (0: skipped); default 2000000
 *   BENCH_GOALS_BIG_RUNS       runs of the big ship; default 1 (it takes the machine for ~an hour)
 *   BENCH_GOALS_QUICK=1        small sizes to check the plumbing: 10000 parts everywhere, big ship 5000
 * An explicit size variable wins over the quick defaults.
 */

/** Part counts and repeats of one goals run. */
export interface GoalsConfig {
  runs: number;
  orbitParts: number;
  sectionParts: number;
  pickParts: number;
  snapParts: number;
  smallParts: number;
  /** 0 = the big ship is skipped. */
  bigParts: number;
  bigRuns: number;
  quick: boolean;
}

/**
 * Reads the goals bench's configuration from `env`.
 * @throws Error naming the variable when a value is not a non-negative integer (or runs < 1).
 */
export function goalsConfig(env: Record<string, string | undefined> = process.env): GoalsConfig {
  const quick = env.BENCH_GOALS_QUICK === '1';
  const int = (name: string, full: number, small: number, min = 0): number => {
    const raw = env[name];
    const v = raw === undefined || raw === '' ? (quick ? small : full) : Number(raw);
    if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
    return v;
  };
  return {
    runs: int('BENCH_RUNS', 3, 2),
    orbitParts: int('BENCH_GOALS_ORBIT_PARTS', 500_000, 10_000, 1),
    sectionParts: int('BENCH_GOALS_SECTION_PARTS', 500_000, 10_000, 1),
    pickParts: int('BENCH_GOALS_PICK_PARTS', 500_000, 10_000, 1),
    snapParts: int('BENCH_GOALS_SNAP_PARTS', 100_000, 10_000, 1),
    smallParts: int('BENCH_GOALS_SMALL_PARTS', 10_000, 10_000, 1),
    bigParts: int('BENCH_GOALS_BIG_PARTS', 2_000_000, 5_000),
    bigRuns: int('BENCH_GOALS_BIG_RUNS', 1, 1, 1),
    quick,
  };
}
