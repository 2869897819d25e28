/**
 * The properties panel's comparison column (viewer.md §2 "Properties panel": headers 'Rev. {current}
 * (current)' and 'Rev. {from}'), shown while a revision comparison is on and one part is selected: each
 * changed property with its value in both revisions and the change as one text ("12.0 → 14.0 mm",
 * "AH36 → DH36"); an added part says so, an unchanged one too. The headers also title the properties
 * table's comparison column of any selection (comparisonHeaders).
 */
import { useSnapshot } from 'valtio';
import type { CompareResponse } from '../../api/contract';
import { COMPARED_PROPERTY_LABELS, changeText, formatCompareValue } from '../logic/comparison';
import { comparisonStore } from '../stores/comparison';

/** The comparison column's headers: 'Rev. {current} (current)' and 'Rev. {from}' (viewer.md §2). */
export function comparisonHeaders(data: Pick<CompareResponse, 'fromRevision' | 'toRevision'>): {
  current: string;
  from: string;
} {
  return { current: `Rev. ${data.toRevision} (current)`, from: `Rev. ${data.fromRevision}` };
}

/** The section for the selected node ids (object-table indices of the open revision); null when not comparing. */
export function PropertiesComparison({ nodes }: { nodes: readonly number[] }) {
  const { status, shown } = useSnapshot(comparisonStore);
  if (status !== 'on' || !shown || nodes.length !== 1) return null;
  const { data, byIndex } = comparisonStore.shown!;
  const change = byIndex.get(nodes[0]) ?? { kind: 'unchanged' as const };
  const { current, from } = comparisonHeaders(data);
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
              <th className="px-2 py-1 text-right font-normal whitespace-nowrap">{current}</th>
              <th className="px-4 py-1 text-right font-normal whitespace-nowrap">{from}</th>
            </tr>
          </thead>
          {change.record.changedProperties.map((p) => (
            <tbody
              key={p.name}
              data-compare-property={p.name}
              className="border-b border-slate-100 font-mono text-[13px] last:border-0"
            >
              <tr>
                <th scope="row" className="px-4 pt-1 text-left align-top font-sans font-normal text-slate-500">
                  {COMPARED_PROPERTY_LABELS[p.name]}
                </th>
                <td className={`px-2 pt-1 text-right align-top ${Array.isArray(p.to) ? 'text-[11px]' : ''}`}>
                  {formatCompareValue(p, p.to)}
                </td>
                <td
                  className={`px-4 pt-1 text-right align-top text-slate-500 ${Array.isArray(p.from) ? 'text-[11px]' : ''}`}
                >
                  {formatCompareValue(p, p.from)}
                </td>
              </tr>
              <tr>
                <td colSpan={3} data-testid="compare-change" className="px-4 pb-1 text-right text-xs text-green-700">
                  {changeText(p)}
                </td>
              </tr>
            </tbody>
          ))}
          {change.record.geometryChanged && (
            <tbody data-compare-property="geometry">
              <tr>
                <th scope="row" className="px-4 py-1 text-left font-sans font-normal text-slate-500">
                  Geometry
                </th>
                <td colSpan={2} className="px-4 py-1 text-right text-green-700">
                  moved or reshaped
                </td>
              </tr>
            </tbody>
          )}
        </table>
      )}
    </div>
  );
}
