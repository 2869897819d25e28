/**
 * Properties panel (viewer.md §2 "Properties panel", §3 "Units", §5 "Property merging"): shown when
 * something is selected; header with the object's name and type, an 'Inside {panel name}' subheader and
 * the table 'description | value unit'. Several selected objects are merged (summable values summed,
 * differing values '** VARIES **'); the loading indicator appears after 300 ms (viewer.md §9).
 */
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { ObjectStatusRow } from '../approval/ObjectStatusRow';
import { getProperties } from '../api/calls';
import { configuredProperties, mergeProperties, toPropertyRows, type PropertyItem } from '../logic/propertyRows';
import { loadObjectProperties, objectPropertiesStore } from '../stores/objectProperties';
import { viewerStore } from '../stores/viewer';
import { PropertiesComparison } from '../compare/PropertiesComparison';

/** At most this many objects are fetched for a merged multi-selection. */
export const MAX_MERGED_OBJECTS = 50;
const LOADING_DELAY_MS = 300;

export function PropertiesPanel({ modelName }: { modelName: string }) {
  const { selection, revision, objects } = useSnapshot(viewerStore);
  const [items, setItems] = useState<PropertyItem[] | null>(null);
  useSnapshot(objectPropertiesStore); // re-render when the config arrives or is saved
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const nodes = selection.map((s) => s.nodeId);
  const key = nodes.slice(0, MAX_MERGED_OBJECTS).join(',');

  useEffect(() => {
    void loadObjectProperties();
  }, []);

  useEffect(() => {
    setItems(null);
    setFailed(null);
    if (!key || revision === null) return;
    const ctl = new AbortController();
    const timer = setTimeout(() => setLoading(true), LOADING_DELAY_MS);
    const ids = key.split(',').map(Number);
    Promise.all(ids.map((i) => getProperties(modelName, revision, i, ctl.signal)))
      .then((res) => {
        if (!ctl.signal.aborted) setItems(mergeProperties(res.map((r) => r.properties)));
      })
      .catch((e: Error) => {
        if (!ctl.signal.aborted && e.name !== 'AbortError') setFailed(e.message);
      })
      .finally(() => {
        clearTimeout(timer);
        if (!ctl.signal.aborted) setLoading(false);
      });
    return () => {
      ctl.abort();
      clearTimeout(timer);
      setLoading(false);
    };
  }, [key, revision, modelName]);

  if (nodes.length === 0) return null;
  const table = viewerStore.objects;
  const single = nodes.length === 1 && table ? table[nodes[0]] : null;
  const parentOf = (i: number) => (table?.[i] && table[i].parent >= 0 ? table[i].parent : -1);
  const parent = nodes.every((n) => parentOf(n) === parentOf(nodes[0])) ? parentOf(nodes[0]) : -1;
  const parentName = parent >= 0 && table ? table[parent]?.name : null;
  void objects;
  // the configured quantities of the selection's object type (all selected objects of one type)
  const type = table?.[nodes[0]]?.type ?? null;
  const oneType = type && nodes.every((n) => table?.[n]?.type === type) ? type : null;
  const rows = items && toPropertyRows(configuredProperties(items, oneType, objectPropertiesStore.config));

  return (
    <section
      data-testid="properties-panel"
      aria-label="Properties"
      className="panel absolute top-16 left-3 z-10 flex max-h-[calc(100%-8.5rem)] w-96 flex-col overflow-hidden"
    >
      <header className="border-b border-slate-200 bg-slate-50 px-4 py-2.5">
        {single ? (
          <>
            <h2 data-testid="properties-title" className="truncate text-sm font-semibold text-ink" title={single.name}>
              {single.name}
            </h2>
            <p className="text-[11px] tracking-wide text-slate-500 uppercase">{single.type}</p>
          </>
        ) : (
          <h2 data-testid="properties-title" className="text-sm font-semibold text-ink">
            {nodes.length} objects selected
          </h2>
        )}
        {parentName && <p className="mt-1 text-xs text-slate-600">Inside {parentName}</p>}
      </header>
      <div className="min-h-0 overflow-auto">
        {failed ? (
          <p className="px-4 py-3 text-sm text-rose-600">{failed}</p>
        ) : rows ? (
          rows.length === 0 ? (
            <p className="px-4 py-3 text-sm text-slate-500">No properties</p>
          ) : (
            <table className="w-full text-sm">
              <tbody>
                {rows.map((r) => (
                  <tr key={r.code} data-property={r.code} className="border-b border-slate-100 last:border-0">
                    <th scope="row" className="px-4 py-1.5 text-left font-normal whitespace-nowrap text-slate-500">
                      {r.description}
                    </th>
                    <td className="px-4 py-1.5 text-right font-mono text-[13px] text-slate-800">
                      {r.unit ? `${r.text} ${r.unit}` : r.text}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        ) : (
          loading && <p className="px-4 py-3 text-sm text-slate-500">Loading properties…</p>
        )}
        <PropertiesComparison nodes={nodes} />
        {revision !== null && table && (
          <ObjectStatusRow
            projectName={modelName}
            revision={revision}
            ids={nodes.flatMap((n) => (table[n] ? [table[n].id] : []))}
          />
        )}
      </div>
    </section>
  );
}
