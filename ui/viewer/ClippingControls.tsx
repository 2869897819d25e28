/**
 * Clipping controls (viewer.md §2 "Clipping controls", §5 "Clipping coordinate input", §9 "Clipping"),
 * shown while clipping is active: Show/Hide (plane opacity 0.6 / 0), Reset (model bounds + 100), and the
 * six inputs Xmin…Zmax with plus / minus. Inputs show the stored box (mm) / 1000 with 3 decimals and
 * follow plane drags (clip-changed); an entry in the frame syntax is applied on Enter or blur; errors show
 * the spec's texts under the input (ui/logic/clipInputs.ts).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ClipPlaneKey } from '../../engine/EngineApi';
import { COORDINATE_NOT_SET_ERROR } from '../../engine/reference/frameSyntax';
import {
  CLIP_KEYS,
  CLIP_LABELS,
  NO_FRAMES,
  evaluateClipEntry,
  formatClipValue,
  stepClipText,
} from '../logic/clipInputs';
import { showToast } from '../stores/toasts';
import { toolsStore } from '../stores/tools';
import { getEngine } from '../stores/viewer';

/** Sets one plane in the engine; false when the engine refused it. The engine's clip-changed updates the mirror. */
async function setPlane(key: ClipPlaneKey, mm: number): Promise<boolean> {
  const api = getEngine()?.api;
  if (!api) return false;
  return api.setClipPlaneValue(key, mm);
}

function ClipInput({ k }: { k: ClipPlaneKey }) {
  const id = useId();
  const { clip } = useSnapshot(toolsStore);
  const stored = clip.box ? clip.box[k] : null;
  const displayed = stored === null ? '' : formatClipValue(stored);
  /** Text being edited (null: show the stored value). */
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The last accepted entry while it still gives the plane's value (plus / minus step its frame). */
  const last = useRef<{ text: string; mm: number } | null>(null);

  useEffect(() => {
    if (last.current && (stored === null || Math.abs(stored - last.current.mm) > 1e-6)) last.current = null;
  }, [stored]);

  async function apply(input: string): Promise<void> {
    const box = toolsStore.clip.box;
    if (!box) return;
    const upper = input.toUpperCase().trim();
    const r = evaluateClipEntry(k, upper, box, toolsStore.frames ?? NO_FRAMES);
    if (!r.ok) {
      setText(upper);
      setError(r.error);
      return;
    }
    try {
      if (!(await setPlane(k, r.mm))) {
        setText(upper);
        setError(COORDINATE_NOT_SET_ERROR);
        return;
      }
    } catch (e) {
      showToast('error', (e as Error).message);
      return;
    }
    last.current = { text: upper, mm: r.mm };
    setText(null);
    setError(null);
  }

  const step = (d: 1 | -1) => void apply(stepClipText(text ?? last.current?.text ?? null, displayed, d));
  const errId = `${id}-error`;
  return (
    <div className="space-y-0.5">
      <div className="flex items-center gap-1">
        <label htmlFor={id} className="w-10 shrink-0 text-xs font-medium text-slate-600">
          {CLIP_LABELS[k]}
        </label>
        <button
          type="button"
          className="btn-ghost h-6 w-6 justify-center px-0 py-0"
          aria-label={`${CLIP_LABELS[k]} minus`}
          onClick={() => step(-1)}
        >
          −
        </button>
        <input
          id={id}
          data-testid={`clip-${k}`}
          className={`field-input w-28 px-1.5 py-0.5 text-right font-mono text-xs ${error ? 'border-rose-400' : ''}`}
          value={text ?? displayed}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errId : undefined}
          onChange={(e) => {
            setText(e.target.value.toUpperCase());
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void apply(e.currentTarget.value);
            if (e.key === 'Escape') {
              setText(null);
              setError(null);
            }
          }}
          onBlur={(e) => {
            if (text !== null && !error) void apply(e.currentTarget.value);
          }}
        />
        <button
          type="button"
          className="btn-ghost h-6 w-6 justify-center px-0 py-0"
          aria-label={`${CLIP_LABELS[k]} plus`}
          onClick={() => step(1)}
        >
          +
        </button>
      </div>
      {error && (
        <p
          id={errId}
          role="alert"
          data-testid={`clip-${k}-error`}
          className="max-w-56 pl-11 text-[11px] whitespace-pre-line text-rose-600"
        >
          {error}
        </p>
      )}
    </div>
  );
}

export function ClippingControls() {
  const { clip } = useSnapshot(toolsStore);
  if (!clip.active) return null;
  const api = () => getEngine()?.api;
  return (
    <section
      data-testid="clipping-controls"
      aria-label="Clipping controls"
      className="panel absolute bottom-16 left-3 z-10 space-y-1.5 p-2"
    >
      <div className="flex gap-1">
        <button
          type="button"
          className="btn-secondary px-2 py-1 text-xs"
          onClick={() => void api()?.setClipVisible(!clip.visible)}
        >
          {clip.visible ? 'Hide' : 'Show'}
        </button>
        <button type="button" className="btn-secondary px-2 py-1 text-xs" onClick={() => void api()?.resetClipBox()}>
          Reset
        </button>
      </div>
      {CLIP_KEYS.map((k) => (
        <ClipInput key={k} k={k} />
      ))}
    </section>
  );
}
