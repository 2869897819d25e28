/**
 * The panel header's Filters and Sort menus (viewer.md §2): filter groups with checkboxes — By progress
 * state (New, In progress, Resolved, Closed), By project revision ('Revision N' for each revision of the
 * current model), By label (the labels in use) — and the four sorts. The Filters button turns
 * rgb(0,151,196) while any filter is active.
 */
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import {
  FILTER_ACTIVE_COLOUR,
  isFilterActive,
  labelsInUse,
  PROGRESS_STATES,
  SORT_LABEL,
  SortOrder,
  STATE_LABEL,
  toggleValue,
} from '../logic/commentsView';
import { useRef } from 'react';
import { commentsStore, exportBcf, importBcf, setFilters, setSort } from '../stores/comments';

function Check({ checked, label, onToggle }: { checked: boolean; label: string; onToggle: () => void }) {
  return (
    <button
      type="button"
      role="menuitemcheckbox"
      aria-checked={checked}
      className="flex w-full items-center gap-2 rounded px-2 py-1 text-left text-sm hover:bg-slate-100"
      onClick={onToggle}
    >
      <span
        className={`flex h-4 w-4 shrink-0 items-center justify-center rounded border text-[10px] ${checked ? 'border-brand-500 bg-brand-500 text-white' : 'border-slate-300'}`}
        aria-hidden="true"
      >
        {checked ? '✓' : ''}
      </span>
      <span className="truncate">{label}</span>
    </button>
  );
}

const GROUP = 'px-2 pt-2 pb-0.5 text-[11px] font-semibold tracking-wide text-slate-500 uppercase';

export function FiltersMenu({ disabled }: { disabled: boolean }) {
  const { filters, revisions, threads } = useSnapshot(commentsStore);
  const labels = useMemo(() => labelsInUse(threads), [threads]);
  const active = isFilterActive(filters);
  return (
    <Popover className="relative">
      <PopoverButton
        className="btn-ghost px-1.5 py-1 text-xs"
        disabled={disabled}
        data-testid="comments-filters"
        data-active={active}
        style={active ? { backgroundColor: FILTER_ACTIVE_COLOUR, color: 'white' } : undefined}
      >
        Filters
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'bottom end', gap: 4 }}
        className="panel z-40 max-h-96 w-56 overflow-auto p-1"
        role="menu"
        aria-label="Filters"
      >
        <p className={GROUP}>By progress state</p>
        {PROGRESS_STATES.map((s) => (
          <Check
            key={s}
            checked={filters.states.includes(s)}
            label={STATE_LABEL[s]}
            onToggle={() => setFilters({ ...filters, states: toggleValue(filters.states, s) })}
          />
        ))}
        <p className={GROUP}>By project revision</p>
        {[...revisions]
          .sort((a, b) => b - a)
          .map((r) => (
            <Check
              key={r}
              checked={filters.revisions.includes(r)}
              label={`Revision ${r}`}
              onToggle={() => setFilters({ ...filters, revisions: toggleValue(filters.revisions, r) })}
            />
          ))}
        <p className={GROUP}>By label</p>
        {labels.length === 0 && <p className="px-2 py-1 text-xs text-slate-400">No labels in use</p>}
        {labels.map((l) => (
          <Check
            key={l}
            checked={filters.labels.includes(l)}
            label={l}
            onToggle={() => setFilters({ ...filters, labels: toggleValue(filters.labels, l) })}
          />
        ))}
      </PopoverPanel>
    </Popover>
  );
}

export function SortMenu({ disabled }: { disabled: boolean }) {
  const { sort } = useSnapshot(commentsStore);
  return (
    <Popover className="relative">
      <PopoverButton
        className="btn-ghost px-1.5 py-1 text-xs"
        disabled={disabled}
        data-testid="comments-sort"
        title={SORT_LABEL[sort]}
      >
        Sort
      </PopoverButton>
      <PopoverPanel anchor={{ to: 'bottom end', gap: 4 }} className="panel z-40 w-44 p-1" role="menu" aria-label="Sort">
        {([SortOrder.OLDEST, SortOrder.LATEST, SortOrder.NEW_FIRST, SortOrder.CLOSED_FIRST] as SortOrder[]).map((o) => (
          <button
            key={o}
            type="button"
            role="menuitemradio"
            aria-checked={sort === o}
            className={`flex w-full rounded px-2 py-1 text-left text-sm hover:bg-slate-100 ${sort === o ? 'font-semibold text-brand-700' : ''}`}
            onClick={() => setSort(o)}
          >
            {SORT_LABEL[o]}
          </button>
        ))}
      </PopoverPanel>
    </Popover>
  );
}

/** BCF export (the shown threads while filtered, else all; 3.0 or 2.1) and import (2.1 or 3.0), issue text §3. */
export function BcfMenu({ disabled }: { disabled: boolean }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const item = 'flex w-full rounded px-2 py-1 text-left text-sm hover:bg-slate-100';
  return (
    <Popover className="relative">
      <PopoverButton className="btn-ghost px-1.5 py-1 text-xs" disabled={disabled} title="BCF export and import">
        BCF
      </PopoverButton>
      <PopoverPanel anchor={{ to: 'bottom end', gap: 4 }} className="panel z-40 w-44 p-1" role="menu" aria-label="BCF">
        {({ close }) => (
          <>
            <button type="button" role="menuitem" className={item} onClick={() => (close(), void exportBcf('3.0'))}>
              Export BCF
            </button>
            <button type="button" role="menuitem" className={item} onClick={() => (close(), void exportBcf('2.1'))}>
              Export BCF 2.1
            </button>
            <button type="button" role="menuitem" className={item} onClick={() => fileRef.current?.click()}>
              Import BCF
            </button>
            <input
              ref={fileRef}
              type="file"
              accept=".bcf,.bcfzip,.zip"
              className="hidden"
              data-testid="bcf-file-input"
              onChange={(e) => {
                const f = e.target.files?.[0];
                e.target.value = '';
                close();
                if (f) void importBcf(f);
              }}
            />
          </>
        )}
      </PopoverPanel>
    </Popover>
  );
}
