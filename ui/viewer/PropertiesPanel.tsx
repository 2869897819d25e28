/**
 * Properties panel (viewer.md §2 "Properties panel", §3 "Units", §5 "Property merging"): shown when
 * something is selected; header with the object's name and type (or the count of a multi-selection), the
 * filter dropdown by object type, the 'Inside {block}' subheader when every selected object is in one
 * block, the table 'description | value unit' of the quantities configured for the type, and while a
 * revision comparison is on a column with the earlier revision's values ('Rev. {current} (current)' /
 * 'Rev. {from}'). The merge covers every selected object and runs in the properties worker
 * (ui/stores/propertiesPanel.ts); the loading indicator appears after 300 ms (viewer.md §9). The panel can be
 * closed (until the next selection) and moved by its header; it stays inside the viewer and off the
 * clipping controls (ui/logic/propertyPanelPlacement.ts).
 */
import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useSnapshot } from 'valtio';
import { ObjectStatusRow } from '../approval/ObjectStatusRow';
import { startDrag } from '../components/pointerDrag';
import { PropertiesComparison, comparisonHeaders } from '../compare/PropertiesComparison';
import { formatPropertyValue, PROPERTY_BY_NAME } from '../../engine/model/properties';
import { DEFAULT_PANEL_POSITION, placePanel, type Rect } from '../logic/propertyPanelPlacement';
import { configuredProperties, toPropertyRows, type PropertyItem } from '../logic/propertyRows';
import { comparisonStore } from '../stores/comparison';
import { loadObjectProperties, objectPropertiesStore } from '../stores/objectProperties';
import {
  closePropertiesPanel,
  mergeSelection,
  movePropertiesPanel,
  openPropertyMerge,
  propertiesPanelStore,
  setMergeComparison,
  setPropertiesTypeFilter,
  typeFilterFor,
} from '../stores/propertiesPanel';
import { toolsStore } from '../stores/tools';
import { viewerStore } from '../stores/viewer';

const LOADING_DELAY_MS = 300;
/** Panel width, CSS px (w-96). */
const PANEL_WIDTH = 384;
/** Selections up to this size are listed in the panel's data-selection attribute (for automation). */
const LISTED_SELECTION = 10_000;

/** The viewer area's size and the clipping controls' rectangle in it, kept current. */
function useArea(panel: React.RefObject<HTMLElement | null>, clipping: boolean) {
  const [area, setArea] = useState<{ width: number; height: number; avoid: Rect | null } | null>(null);
  useLayoutEffect(() => {
    const parent = panel.current?.parentElement;
    if (!parent) return;
    const measure = () => {
      const p = parent.getBoundingClientRect();
      const c = clipping ? parent.querySelector('[data-testid="clipping-controls"]')?.getBoundingClientRect() : null;
      const avoid = c ? { left: c.left - p.left, top: c.top - p.top, width: c.width, height: c.height } : null;
      setArea((a) =>
        a && a.width === p.width && a.height === p.height && JSON.stringify(a.avoid) === JSON.stringify(avoid)
          ? a
          : { width: p.width, height: p.height, avoid },
      );
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(parent);
    const controls = parent.querySelector('[data-testid="clipping-controls"]');
    if (controls) ro.observe(controls);
    return () => ro.disconnect();
  });
  return area;
}

export function PropertiesPanel({ modelName }: { modelName: string }) {
  const { selection, selectionSeq, revision, objects, phase } = useSnapshot(viewerStore);
  // the worker reads the columns once the scene is in, not competing with the scene package's download
  const ready = phase === 'ready';
  const panelState = useSnapshot(propertiesPanelStore);
  const { status, shown } = useSnapshot(comparisonStore);
  const { clip } = useSnapshot(toolsStore);
  useSnapshot(objectPropertiesStore); // re-render when the config arrives or is saved
  const ref = useRef<HTMLElement>(null);
  const [slow, setSlow] = useState(false);
  const area = useArea(ref, clip.active);

  useEffect(() => {
    void loadObjectProperties();
  }, []);

  useEffect(() => {
    if (revision === null || !objects || !ready) return;
    return openPropertyMerge(modelName, revision, objects);
  }, [modelName, revision, objects, ready]);

  const compared = status === 'on' && shown ? comparisonStore.shown!.data : null;
  const compareKey = compared ? `${compared.fromRevision}>${compared.toRevision}@${compared.computedAt}` : '';
  const type = typeFilterFor(panelState, selectionSeq);
  const count = selection.length;
  const key = `${modelName}|${revision}|${selectionSeq}|${count}|${type ?? ''}|${compareKey}`;

  useEffect(() => {
    if (count === 0 || revision === null || !objects || !ready) return;
    const indices = Int32Array.from(viewerStore.selection, (s) => s.nodeId);
    void setMergeComparison(compareKey, compared).then(() => mergeSelection(indices, type, key));
    setSlow(false);
    const timer = setTimeout(() => setSlow(true), LOADING_DELAY_MS);
    return () => clearTimeout(timer);
    // `compared`, `type` and the selection are named by `key`
  }, [key, objects, ready]);

  if (count === 0 || panelState.closedAtSeq === selectionSeq) return null;
  const table = viewerStore.objects;
  const result = panelState.resultKey === key ? propertiesPanelStore.result : null;
  const single = count === 1 && table ? table[selection[0].nodeId] : null;
  // the configured quantities of the shown object type (the filter's, or the one type selected)
  const types = result?.summary.types ?? [];
  const oneType = type ?? (types.length === 1 ? types[0].type : null);
  const items: PropertyItem[] =
    result?.properties.map((p) => {
      const d = PROPERTY_BY_NAME.get(p.code);
      return {
        name: p.code,
        description: d?.description ?? p.code,
        unit: d?.unit ?? '',
        isSummable: d?.isSummable ?? false,
        value: p.value,
      };
    }) ?? [];
  const earlier = new Map(result?.earlier?.map((v, k) => [result.properties[k].code, v]) ?? []);
  const rows = result && toPropertyRows(configuredProperties(items, oneType, objectPropertiesStore.config));
  const headers = compared && result?.earlier ? comparisonHeaders(compared) : null;
  const place = area
    ? placePanel(panelState.position ?? DEFAULT_PANEL_POSITION, PANEL_WIDTH, area, area.avoid)
    : { ...DEFAULT_PANEL_POSITION, maxHeight: undefined };

  const dragHeader = (e: ReactPointerEvent<HTMLElement>) => {
    if ((e.target as HTMLElement).closest('button, select, a, input')) return;
    const from = { left: place.left, top: place.top };
    startDrag(e, (dx, dy) => movePropertiesPanel({ left: from.left + dx, top: from.top + dy }));
  };

  return (
    <section
      ref={ref}
      data-testid="properties-panel"
      data-merged={result ? result.merged : undefined}
      data-selection={count <= LISTED_SELECTION ? selection.map((s) => s.nodeId).join(',') : undefined}
      aria-label="Properties"
      className="panel absolute z-10 flex w-96 flex-col overflow-hidden"
      style={{ left: place.left, top: place.top, maxHeight: place.maxHeight }}
    >
      <header
        data-testid="properties-header"
        className="cursor-move touch-none border-b border-slate-200 bg-slate-50 px-4 py-2.5 select-none"
        onPointerDown={dragHeader}
      >
        <div className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            {single ? (
              <>
                <h2
                  data-testid="properties-title"
                  className="truncate text-sm font-semibold text-ink"
                  title={single.name}
                >
                  {single.name}
                </h2>
                <p className="text-[11px] tracking-wide text-slate-500 uppercase">{single.type}</p>
              </>
            ) : (
              <h2 data-testid="properties-title" className="text-sm font-semibold text-ink">
                {count} objects selected
              </h2>
            )}
          </div>
          <button
            type="button"
            aria-label="Close properties"
            title="Close"
            className="btn-ghost -mr-2 h-6 w-6 justify-center px-0 py-0 text-slate-500"
            onClick={() => closePropertiesPanel(selectionSeq)}
          >
            ×
          </button>
        </div>
        {count > 1 && (
          <select
            aria-label="Object type filter"
            data-testid="properties-type-filter"
            className="field-input mt-1.5 w-full py-0.5 text-xs"
            value={type ?? ''}
            onChange={(e) => setPropertiesTypeFilter(selectionSeq, e.target.value || null)}
          >
            <option value="">All types ({count})</option>
            {types.map((t) => (
              <option key={t.type} value={t.type}>
                {t.type} ({t.count})
              </option>
            ))}
          </select>
        )}
        {result?.summary.block && (
          <p data-testid="properties-block" className="mt-1 text-xs text-slate-600">
            Inside {result.summary.block}
          </p>
        )}
      </header>
      <div className="min-h-0 overflow-auto">
        {panelState.error ? (
          <p className="px-4 py-3 text-sm text-rose-600">{panelState.error}</p>
        ) : rows ? (
          rows.length === 0 ? (
            <p className="px-4 py-3 text-sm text-slate-500">No properties</p>
          ) : (
            <table className="w-full text-sm">
              {headers && (
                <thead className="bg-slate-50 text-xs text-slate-500">
                  <tr>
                    <th className="px-4 py-1 text-left font-normal" />
                    <th className="px-2 py-1 text-right font-normal whitespace-nowrap">{headers.current}</th>
                    <th className="px-4 py-1 text-right font-normal whitespace-nowrap">{headers.from}</th>
                  </tr>
                </thead>
              )}
              <tbody>
                {rows.map((r) => {
                  const before = headers ? earlier.get(r.code) : undefined;
                  const b = before === undefined ? null : formatPropertyValue(r.code, before);
                  return (
                    <tr key={r.code} data-property={r.code} className="border-b border-slate-100 last:border-0">
                      <th scope="row" className="px-4 py-1.5 text-left font-normal whitespace-nowrap text-slate-500">
                        {r.description}
                      </th>
                      <td className="px-4 py-1.5 text-right font-mono text-[13px] text-slate-800">
                        {r.unit ? `${r.text} ${r.unit}` : r.text}
                      </td>
                      {headers && (
                        <td data-compare-from className="px-4 py-1.5 text-right font-mono text-[13px] text-slate-500">
                          {b ? (b.unit ? `${b.text} ${b.unit}` : b.text) : ''}
                        </td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )
        ) : (
          slow && <p className="px-4 py-3 text-sm text-slate-500">Loading properties…</p>
        )}
        <PropertiesComparison nodes={count === 1 ? [selection[0].nodeId] : []} />
        {revision !== null && table && (
          <ObjectStatusRow
            projectName={modelName}
            revision={revision}
            ids={selection.flatMap((s) => (table[s.nodeId] ? [table[s.nodeId].id] : []))}
          />
        )}
      </div>
    </section>
  );
}
