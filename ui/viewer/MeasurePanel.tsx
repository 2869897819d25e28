/**
 * Measure tool panel (viewer.md §4 "Measuring", §9 "measure text in mm with 1 decimal"): while the
 * operator runs it says which click is next (right click cancels); it lists the completed measurements
 * (they stay until deleted) with their distance in mm and a delete button each, plus 'Delete all'.
 */
import { useSnapshot } from 'valtio';
import { formatMeasure } from '../../engine/snap/measure';
import { toolsStore } from '../stores/tools';
import { getEngine } from '../stores/viewer';

/** Prompt of the measure operator state. */
export function measurePrompt(state: 'off' | 'start' | 'end'): string | null {
  if (state === 'start') return 'Click the start point (right click cancels)';
  if (state === 'end') return 'Click the end point (right click cancels)';
  return null;
}

export function MeasurePanel() {
  const { measureState, measurements } = useSnapshot(toolsStore);
  const prompt = measurePrompt(measureState);
  if (!prompt && measurements.length === 0) return null;
  const del = (ids?: number[]) => void getEngine()?.api.deleteMeasurements(ids);
  return (
    <section
      data-testid="measure-panel"
      aria-label="Measurements"
      className="panel absolute top-16 right-3 z-10 w-64 p-2 text-sm"
    >
      {prompt && (
        <p data-testid="measure-prompt" className="mb-1 text-xs text-brand-700">
          {prompt}
        </p>
      )}
      {measurements.length > 0 && (
        <>
          <ul className="max-h-48 space-y-0.5 overflow-auto">
            {measurements.map((m) => (
              <li key={m.id} className="flex items-center gap-2">
                <span className="text-xs text-slate-400">#{m.id}</span>
                <span data-testid="measurement" className="flex-1 font-mono">
                  {formatMeasure(m.distance)}
                </span>
                <button
                  type="button"
                  className="btn-ghost px-1.5 py-0.5 text-xs"
                  aria-label={`Delete measurement ${m.id}`}
                  onClick={() => del([m.id])}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="btn-ghost mt-1 px-2 py-0.5 text-xs" onClick={() => del()}>
            Delete all
          </button>
        </>
      )}
    </section>
  );
}
