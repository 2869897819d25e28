/**
 * Comparison settings (viewer.md §2 bottom-left tools; application.md §4 "Revision comparison"): the
 * earlier-revision selector (revisions newest first, those at or above the current revision disabled),
 * the start / stop button (off: 'Start comparison', on: 'Stop comparison', busy: 'Calculating...'), the
 * colour key with counts, and the change summary toggle. State and rules live in ui/stores/comparison.ts.
 */
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useEffect, useId } from 'react';
import { useSnapshot } from 'valtio';
import { ADDED_RGB, CHANGED_RGB, revisionChoices } from '../logic/comparison';
import {
  comparisonStore,
  initComparisonRevision,
  setComparisonRevision,
  setShowComparisonSummary,
  toggleComparison,
} from '../stores/comparison';
import { currentProjectStore } from '../stores/currentProject';
import { viewerStore } from '../stores/viewer';
import { StrokeIcon } from '../components/StrokeIcon';

const rgbCss = (c: readonly number[]) => `rgb(${c.join(',')})`;

/** Texts of the button per state (§4: busy reads 'Calculating...'). */
export const COMPARISON_BUTTON_TEXT = {
  off: 'Start comparison',
  on: 'Stop comparison',
  busy: 'Calculating...',
} as const;

export function ComparisonMenu() {
  const { status, fromRevision, shown, showSummary } = useSnapshot(comparisonStore);
  const { revision } = useSnapshot(viewerStore);
  const { info } = useSnapshot(currentProjectStore);
  const selectId = useId();
  useEffect(() => {
    if (info && revision !== null) initComparisonRevision();
  }, [info, revision]);
  const choices = revisionChoices(info?.projectInfo.revisions ?? [], revision);
  const data = shown?.data;
  return (
    <Popover className="relative">
      <PopoverButton
        className={`btn-ghost ${status !== 'off' ? 'bg-brand-50 text-brand-700' : ''}`}
        title="Comparison settings"
        data-comparison-status={status}
      >
        <StrokeIcon>
          <path d="M4 4h5v12H4zM11 4h5v12h-5z" />
          <path d="M9 10h2" />
        </StrokeIcon>
        Compare
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'top start', gap: 8 }}
        className="panel z-30 w-64 space-y-2 p-3"
        aria-label="Comparison settings"
      >
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Comparison settings</p>
        <div className="space-y-1">
          <label htmlFor={selectId} className="block text-sm text-slate-700">
            Earlier revision
          </label>
          <select
            id={selectId}
            className="field-input py-1 text-sm"
            value={fromRevision ?? ''}
            onChange={(e) => void setComparisonRevision(Number(e.target.value))}
          >
            {fromRevision === null && <option value="">No revision</option>}
            {choices.map((c) => (
              <option key={c.revision} value={c.revision} disabled={c.disabled}>
                Rev. {c.revision}
                {c.revision === revision ? ' (current)' : ''}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className="btn-primary w-full justify-center py-1.5 text-sm"
          data-testid="comparison-toggle"
          aria-busy={status === 'busy'}
          onClick={() => void toggleComparison()}
        >
          {COMPARISON_BUTTON_TEXT[status]}
        </button>
        {data && (
          <ul className="space-y-1 text-sm text-slate-700" data-testid="comparison-key">
            <KeyItem css={rgbCss(ADDED_RGB)} label="Added" count={data.steelObjectsAdded.length} />
            <KeyItem css={rgbCss(CHANGED_RGB)} label="Changed" count={data.steelObjectsChanged.length} />
            <KeyItem css="rgba(190,60,60,0.45)" label="Removed (ghosts)" count={data.steelObjectsRemoved.length} />
          </ul>
        )}
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-3.5 w-3.5 accent-brand-500"
            checked={showSummary}
            onChange={(e) => setShowComparisonSummary(e.target.checked)}
          />
          Show change summary
        </label>
      </PopoverPanel>
    </Popover>
  );
}

function KeyItem({ css, label, count }: { css: string; label: string; count: number }) {
  return (
    <li className="flex items-center gap-2">
      <span className="h-3 w-3 rounded-sm border border-slate-300" style={{ background: css }} aria-hidden="true" />
      <span className="flex-1">{label}</span>
      <span className="font-mono text-xs">{count}</span>
    </li>
  );
}
