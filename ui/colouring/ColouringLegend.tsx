/**
 * The colouring legend (viewer.md §2 "coloring legend"; application.md §4 "Coloring", §9 "Legend column
 * order | by colour count, descending"): one column per colour with its value or range and its count,
 * most frequent first, over the bottom of the 3D view. Shown while something is coloured and the legend
 * is switched on (the colouring menu's 'Show legend', or its own hide button). Columns keep a readable
 * width at laptop size (1366×768) and the strip scrolls sideways when there are many.
 */
import { useSnapshot } from 'valtio';
import { rgbHex } from '../logic/colourPalette';
import { colouringStore, setLegendVisible } from '../stores/colouring';

/** The legend panel; renders nothing while hidden or while nothing is coloured. */
export function ColouringLegend() {
  const { legend, legendVisible, withoutValue } = useSnapshot(colouringStore);
  if (!legendVisible || legend.length === 0) return null;
  const quantities = [...new Set(legend.map((e) => e.quantities))].join(', ');
  const total = legend.reduce((a, e) => a + e.count, 0);
  return (
    <section
      data-testid="colour-legend"
      aria-label="Coloring legend"
      className="panel absolute bottom-[4.75rem] left-3 z-10 max-w-[calc(100%-1.5rem)] px-3 py-2"
    >
      <header className="mb-1.5 flex items-center gap-3 text-xs text-slate-500">
        <span className="font-semibold tracking-wide text-slate-700 uppercase">Legend</span>
        <span data-testid="legend-quantities">{quantities}</span>
        <span>
          {total} part(s){withoutValue ? `, ${withoutValue} without a value` : ''}
        </span>
        <button
          type="button"
          className="ml-auto rounded px-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
          title="Hide legend"
          aria-label="Hide legend"
          onClick={() => setLegendVisible(false)}
        >
          ×
        </button>
      </header>
      <ol className="flex gap-1.5 overflow-x-auto pb-1">
        {legend.map((e) => (
          <li
            key={e.key}
            data-testid="legend-column"
            data-key={e.key}
            data-color={rgbHex(e.color)}
            data-count={e.count}
            className="flex w-24 shrink-0 flex-col items-stretch"
            title={`${e.quantities}: ${e.label} (${e.count})`}
          >
            <span className="h-4 rounded-sm border border-black/10" style={{ background: rgbHex(e.color) }} />
            <span data-testid="legend-value" className="mt-0.5 truncate text-sm font-medium text-ink">
              {e.label}
            </span>
            <span data-testid="legend-count" className="text-xs text-slate-500">
              {e.count}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
