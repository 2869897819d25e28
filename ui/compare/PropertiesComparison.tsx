/**
 * The properties panel's comparison column (viewer.md §2 "Properties panel": headers 'Rev. {current}
 * (current)' and 'Rev. {from}'), shown while a revision comparison is on and one part is selected: each
 * changed property with its value in both revisions and the change as one text ("12.0 → 14.0 mm",
 * "AH36 → DH36"); an added part says so, an unchanged one too.
 */
import { useSnapshot } from 'valtio';
import { COMPARED_PROPERTY_LABELS, changeText, formatCompareValue } from '../logic/comparison';
import { comparisonStore } from '../stores/comparison';

/** The section for the selected node ids (object-table indices of the open revision); null when not comparing. */
export function PropertiesComparison({ nodes }: { nodes: readonly number[] }) {
  const { status, shown } = useSnapshot(comparisonStore);
  if (status !== 'on' || !shown || nodes.length !== 1) return null;
  const { data, byIndex } = comparisonStore.shown!;
  const change = byIndex.get(nodes[0]) ?? { kind: 'unchanged' as const };
  const current = `Rev. ${data.toRevision} (current)`;
  const from = `Rev. ${data.fromRevision}`;
  return (
    <div data-testid="properties-comparison" data-change-kind={change.kind} className="border-t border-slate-200">
      {change.kind === 'added' && (
        <p className="px-4 py-2 text-sm" style={{ color: 'rgb(0,140,180)' }}>
          Added in {current}; not in {from}
        </p>
      )}
      {change.kind === 'unchanged' && <p className="px-4 py-2 text-sm text-slate-500">Unchanged since {from}</p>}
      {change.kind === 'changed' && (
        <table className="w-full text-sm">
          <thead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <th className="px-4 py-1 text-left font-normal">Changed</th>
              <th className="px-2 py-1 text-right font-normal">{current}</th>
              <th className="px-2 py-1 text-right font-normal">{from}</th>
              <th className="px-4 py-1 text-right font-normal">Change</th>
            </tr>
          </thead>
          <tbody className="font-mono text-[13px]">
            {change.record.changedProperties.map((p) => (
              <tr key={p.name} data-compare-property={p.name} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="px-4 py-1 text-left font-sans font-normal text-slate-500">
                  {COMPARED_PROPERTY_LABELS[p.name]}
                </th>
                <td className="px-2 py-1 text-right">{formatCompareValue(p, p.to)}</td>
                <td className="px-2 py-1 text-right text-slate-500">{formatCompareValue(p, p.from)}</td>
                <td data-testid="compare-change" className="px-4 py-1 text-right whitespace-nowrap text-green-700">
                  {changeText(p)}
                </td>
              </tr>
            ))}
            {change.record.geometryChanged && (
              <tr data-compare-property="geometry">
                <th scope="row" className="px-4 py-1 text-left font-sans font-normal text-slate-500">
                  Geometry
                </th>
                <td colSpan={3} className="px-4 py-1 text-right text-green-700">
                  moved or reshaped
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </div>
  );
}
