/**
 * Change summary of a revision comparison (beyond application.md §4: what APS DiffTool and CADMATIC
 * eBrowser stop short of): per part type the counts of added, changed, removed, unchanged and ambiguous
 * parts, and the steel weight (t) and centre of gravity (m) of the ship before and after. Shown while the
 * comparison is on and the summary is enabled in the comparison settings.
 */
import { useSnapshot } from 'valtio';
import type { ShipMass } from '../../api/contract';
import { comparisonStore, setShowComparisonSummary } from '../stores/comparison';

const TYPE_LABELS: Record<string, string> = { PLATE: 'Plates', STIFFENER: 'Stiffeners', BRACKET: 'Brackets' };

/** Weight in tonnes with 1 decimal. */
export const weightText = (m: ShipMass) => `${m.weight.toFixed(1)} t`;
/** One coordinate of the centre of gravity in metres with 3 decimals, '—' without weight. */
export const cgText = (m: ShipMass, axis: 0 | 1 | 2) => (m.cg ? `${m.cg[axis].toFixed(3)} m` : '—');

/** The centre of gravity as the ship's LCG, TCG and VCG (x, y, z). */
const CG_ROWS = [
  { axis: 0, label: 'LCG (x)' },
  { axis: 1, label: 'TCG (y)' },
  { axis: 2, label: 'VCG (z)' },
] as const;

export function ComparisonSummary() {
  const { status, shown, showSummary } = useSnapshot(comparisonStore);
  if (status !== 'on' || !shown || !showSummary) return null;
  const { data } = comparisonStore.shown!;
  const { summary } = data;
  return (
    <section
      data-testid="comparison-summary"
      aria-label="Change summary"
      className="panel absolute right-3 bottom-16 z-10 w-96 p-3 text-sm"
    >
      <header className="mb-2 flex items-center justify-between">
        <h2 className="text-sm font-semibold text-ink">
          Changes Rev. {data.fromRevision} → Rev. {data.toRevision}
        </h2>
        <button
          type="button"
          className="btn-ghost px-1.5 py-0.5 text-xs"
          onClick={() => setShowComparisonSummary(false)}
          title="Close"
        >
          ✕
        </button>
      </header>
      <table className="w-full text-right text-[13px]">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="text-left font-normal">Type</th>
            <th className="font-normal">Added</th>
            <th className="font-normal">Changed</th>
            <th className="font-normal">Removed</th>
            <th className="font-normal">Unchanged</th>
            <th className="font-normal">Ambiguous</th>
          </tr>
        </thead>
        <tbody className="font-mono">
          {summary.perType.map((t) => (
            <tr key={t.type} data-type={t.type}>
              <th scope="row" className="text-left font-sans font-normal">
                {TYPE_LABELS[t.type] ?? t.type}
              </th>
              <td>{t.added}</td>
              <td>{t.changed}</td>
              <td>{t.removed}</td>
              <td>{t.unchanged}</td>
              <td>{t.ambiguous}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="mt-2 w-full text-[13px]">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="text-left font-normal" />
            <th className="text-right font-normal">Rev. {summary.before.revision}</th>
            <th className="text-right font-normal">Rev. {summary.after.revision}</th>
          </tr>
        </thead>
        <tbody className="font-mono">
          <tr data-testid="summary-weight">
            <th scope="row" className="text-left font-sans font-normal">
              Steel weight
            </th>
            <td className="text-right">{weightText(summary.before)}</td>
            <td className="text-right">{weightText(summary.after)}</td>
          </tr>
          {CG_ROWS.map(({ axis, label }) => (
            <tr key={axis} data-testid={`summary-cg-${axis}`}>
              <th scope="row" className="text-left font-sans font-normal">
                {label}
              </th>
              <td className="text-right">{cgText(summary.before, axis)}</td>
              <td className="text-right">{cgText(summary.after, axis)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
