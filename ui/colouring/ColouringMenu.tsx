/**
 * Colouring settings, a bottom-left tool (viewer.md §2 "Bottom left: annotation, coloring, snap, ...";
 * application.md §4 "Coloring"): per object type (Compartments, Plates, Stiffeners, Brackets) the
 * quantities to colour by (the object-properties configuration's lists, ui/logic/colouringQuantities.ts),
 * one or more, each type showing '-- No colors --' while none is chosen; the
 * thickness view's material side; whether the legend is shown; and 'Clear'. Changes go to
 * ui/stores/colouring.ts, which clears the selection and recolours.
 */
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useEffect, useId, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { THICKNESS_VIEW_SIDES, type ObjectPropertiesConfig } from '../../api/contract';
import { StrokeIcon } from '../components/StrokeIcon';
import { COLOUR_TARGETS, isNoColouring, quantityName } from '../logic/colouringPlan';
import { colouringQuantities } from '../logic/colouringQuantities';
import {
  clearColouring,
  colouringStore,
  setLegendVisible,
  setThicknessSide,
  toggleColouringQuantity,
  type ThicknessSide,
} from '../stores/colouring';
import { loadObjectProperties, objectPropertiesStore } from '../stores/objectProperties';

/** The text of a type with nothing chosen (application.md §8 "Empty and loading texts"). */
export const NO_COLORS = '-- No colors --';

/** The 'Coloring' button and its settings panel (bottom-left toolbar). */
export function ColouringMenu() {
  const { settings, thicknessSide, legendVisible, busy, thickness } = useSnapshot(colouringStore);
  const { config } = useSnapshot(objectPropertiesStore);
  const quantities = useMemo(() => colouringQuantities(config as ObjectPropertiesConfig | null), [config]);
  const sideId = useId();
  useEffect(() => {
    void loadObjectProperties();
  }, []);
  const active = !isNoColouring(settings as never) || thicknessSide !== null;
  return (
    <Popover className="relative">
      <PopoverButton
        className={`btn-ghost ${active ? 'bg-brand-50 text-brand-700' : ''}`}
        title="Coloring settings"
        data-busy={busy}
      >
        <StrokeIcon>
          <circle cx="7" cy="8" r="4" />
          <circle cx="13" cy="8" r="4" />
          <circle cx="10" cy="13" r="4" />
        </StrokeIcon>
        Coloring
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'top start', gap: 8 }}
        className="panel z-30 max-h-[70vh] w-72 space-y-3 overflow-y-auto p-3"
        aria-label="Coloring settings"
      >
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Coloring settings</p>
        {COLOUR_TARGETS.map((t) => {
          const chosen = settings[t.key];
          return (
            <fieldset key={t.key} className="space-y-1" data-testid={`colouring-${t.key}`}>
              <legend className="text-sm font-medium text-slate-800">{t.label}</legend>
              <p className="text-xs text-slate-500" data-testid={`colouring-${t.key}-summary`}>
                {chosen.length ? chosen.map(quantityName).join(' · ') : NO_COLORS}
              </p>
              <div className="flex flex-wrap gap-x-3 gap-y-1">
                {quantities[t.key].map((q) => (
                  <label key={q.code} className="flex items-center gap-1.5 text-sm text-slate-700">
                    <input
                      type="checkbox"
                      className="h-3.5 w-3.5 accent-brand-500"
                      checked={chosen.includes(q.code)}
                      onChange={(e) => void toggleColouringQuantity(t.key, q.code, e.target.checked)}
                    />
                    {q.description}
                  </label>
                ))}
              </div>
            </fieldset>
          );
        })}
        <div className="space-y-1 border-t border-slate-200 pt-2">
          <label htmlFor={sideId} className="block text-sm font-medium text-slate-800">
            Thickness view: material side
          </label>
          <select
            id={sideId}
            className="w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm"
            value={thicknessSide ?? ''}
            onChange={(e) => void setThicknessSide((e.target.value || null) as ThicknessSide | null)}
          >
            <option value="">-- Off --</option>
            {THICKNESS_VIEW_SIDES.map((s) => (
              <option key={s} value={s}>
                {s === 'ALL' ? 'All sides' : s}
              </option>
            ))}
          </select>
          {thickness && (
            <p className="text-xs text-slate-500" data-testid="thickness-view-count">
              {thickness.drawn} part(s) drawn{thickness.skipped ? `, ${thickness.skipped} without a usable side` : ''}
            </p>
          )}
        </div>
        <div className="flex items-center justify-between border-t border-slate-200 pt-2">
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-3.5 w-3.5 accent-brand-500"
              checked={legendVisible}
              onChange={(e) => setLegendVisible(e.target.checked)}
            />
            Show legend
          </label>
          <button type="button" className="btn-ghost text-sm" disabled={!active} onClick={() => void clearColouring()}>
            Clear
          </button>
        </div>
      </PopoverPanel>
    </Popover>
  );
}
