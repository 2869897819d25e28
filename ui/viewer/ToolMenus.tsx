/**
 * Bottom-left settings menus (viewer.md §2 "Toolbar toggles", §3 "Snap settings", "Annotation
 * settings"): Snap settings, a menu of four checkable options (End point, Intersection point, Polygon
 * point, Nearest point; all on by default), and Annotation settings (text height in mm, default 200, and
 * the toggles compartments, plates, parameters, stiffeners, openings, brackets; off by default). Both
 * persist in localStorage (ui/logic/persisted.ts) and go to the engine.
 */
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useEffect, useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import { ANNOTATION_KINDS, SNAP_OPTIONS, textHeightError } from '../logic/persisted';
import { setAnnotationSettings, setSnapOption, toolsStore } from '../stores/tools';
import { StrokeIcon } from '../components/StrokeIcon';

export function SnapSettingsMenu() {
  const { snapSettings } = useSnapshot(toolsStore);
  return (
    <Popover className="relative">
      <PopoverButton className="btn-ghost" title="Snap settings">
        <StrokeIcon>
          <circle cx="10" cy="10" r="3" />
          <path d="M10 2v4M10 14v4M2 10h4M14 10h4" />
        </StrokeIcon>
        Snap
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'top start', gap: 8 }}
        className="panel z-30 w-52 p-1"
        role="menu"
        aria-label="Snap settings"
      >
        <p className="px-2 py-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Snap settings</p>
        {SNAP_OPTIONS.map((o) => (
          <button
            key={o.key}
            type="button"
            role="menuitemcheckbox"
            aria-checked={snapSettings[o.key]}
            className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-slate-100"
            onClick={() => setSnapOption(o.key, !snapSettings[o.key])}
          >
            <span
              className={`flex h-4 w-4 items-center justify-center rounded border ${snapSettings[o.key] ? 'border-brand-500 bg-brand-500 text-white' : 'border-slate-300'}`}
              aria-hidden="true"
            >
              {snapSettings[o.key] ? '✓' : ''}
            </span>
            {o.label}
          </button>
        ))}
      </PopoverPanel>
    </Popover>
  );
}

export function AnnotationSettingsMenu() {
  const { annotationSettings, annotationCount } = useSnapshot(toolsStore);
  const heightId = useId();
  const [height, setHeight] = useState(String(annotationSettings.textHeight));
  useEffect(() => setHeight(String(annotationSettings.textHeight)), [annotationSettings.textHeight]);
  const error = textHeightError(height);
  const commitHeight = () => {
    if (!error && Number(height) !== annotationSettings.textHeight)
      setAnnotationSettings({ textHeight: Number(height) });
  };
  return (
    <Popover className="relative">
      <PopoverButton className="btn-ghost" title="Annotation settings">
        <StrokeIcon>
          <path d="M4 15V5h12v7H9l-5 3Z" />
        </StrokeIcon>
        Annotations
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'top start', gap: 8 }}
        className="panel z-30 w-60 space-y-2 p-3"
        aria-label="Annotation settings"
      >
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Annotation settings</p>
        <div className="space-y-1">
          <label htmlFor={heightId} className="block text-sm text-slate-700">
            Text height (mm)
          </label>
          <input
            id={heightId}
            inputMode="decimal"
            className={`field-input py-1 text-sm ${error ? 'border-rose-400' : ''}`}
            value={height}
            onChange={(e) => setHeight(e.target.value)}
            onBlur={commitHeight}
            onKeyDown={(e) => e.key === 'Enter' && commitHeight()}
          />
          {error && (
            <p role="alert" className="text-xs text-rose-600">
              {error}
            </p>
          )}
        </div>
        {ANNOTATION_KINDS.map((k) => (
          <label key={k.key} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-3.5 w-3.5 accent-brand-500"
              checked={annotationSettings[k.key]}
              onChange={(e) => setAnnotationSettings({ [k.key]: e.target.checked })}
            />
            {k.label}
          </label>
        ))}
        <p data-testid="annotation-count" className="text-xs text-slate-500">
          {annotationCount} annotation(s) shown
        </p>
      </PopoverPanel>
    </Popover>
  );
}
