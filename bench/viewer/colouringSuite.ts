/**
 * The `colouring` suite (application.md §4 "Coloring"): planning the colours and the legend of a
 * 100k-part ship (BENCH_PARTS) in the viewer's main thread, for plates by thickness (few distinct values),
 * plates by weight (ranges) and stiffeners by profile, and plates by material and thickness together.
 * Property columns are synthetic (the plan reads only columns and types). Timings are reported, not asserted.
 */
import { NO_COLOURING, planColouring, type ColouringSettings } from '../../ui/logic/colouringPlan';
import type { BenchRow } from '../run';

/** Plans three colourings of BENCH_PARTS (default 100k) synthetic parts; one row of time and one of columns each. */
export async function colouringSuite(): Promise<BenchRow[]> {
  const n = Number(process.env.BENCH_PARTS ?? 100_000);
  const types = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 'STIFFENER' : i % 17 === 0 ? 'BRACKET' : 'PLATE'));
  const plate = (i: number) => types[i] !== 'STIFFENER';
  const columns = {
    PLTH: types.map((_, i) => (plate(i) ? (8 + (i % 9) * 2) / 1000 : null)),
    W: types.map((_, i) => (plate(i) ? ((i * 7919) % 5000) / 1000 + 0.01 : null)),
    MAT: types.map((_, i) => (plate(i) ? ['A', 'AH32', 'AH36', 'DH36'][i % 4] : null)),
    PROFILE: types.map((_, i) => (plate(i) ? null : `HP ${160 + (Math.floor(i / 3) % 9) * 20}x10`)),
  };
  const cases: [string, ColouringSettings][] = [
    ['plates+brackets by thickness', { ...NO_COLOURING, plates: ['PLTH'], brackets: ['PLTH'] }],
    ['plates by weight, stiffeners by profile', { ...NO_COLOURING, plates: ['W'], stiffeners: ['PROFILE'] }],
    ['plates by material and thickness', { ...NO_COLOURING, plates: ['MAT', 'PLTH'] }],
  ];
  const rows: BenchRow[] = [];
  for (const [name, settings] of cases) {
    planColouring(settings, types, columns); // warm-up
    const t = performance.now();
    const plan = planColouring(settings, types, columns);
    rows.push({ suite: 'colouring', case: `${name} (${n} parts)`, value: performance.now() - t, unit: 'ms' });
    rows.push({ suite: 'colouring', case: `${name}: legend columns`, value: plan.legend.length, unit: 'columns' });
  }
  return rows;
}
