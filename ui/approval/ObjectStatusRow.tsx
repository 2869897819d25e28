/**
 * The OBJECT_STATUS row of the properties panel (viewer.md §2 "Properties panel", §3 "Object status
 * property"): the selected objects' approval status as a select for users allowed to change it (as text
 * otherwise), a spinner instead of the select while a change is in progress, '** REMOVED **' for a deleted
 * option and '** VARIES **' when the selected objects differ. For one object its recorded changes (who,
 * when, from, to) expand under the select.
 */
import { type ReactNode, useEffect, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { formatDate } from '../logic/format';
import {
  approvalStore,
  changeObjectStatus,
  hideObjectHistory,
  loadObjectHistory,
  mayChangeStatus,
  REMOVED_TEXT,
  statusDisplay,
  stopWatchingObjectStatus,
  VARIES_TEXT,
  watchObjectStatus,
} from '../stores/approval';

/** The status row for the selected objects `ids` (OCX ids) of `projectName` revision `revision`. */
export function ObjectStatusRow({
  projectName,
  revision,
  ids,
}: {
  projectName: string;
  revision: number;
  ids: string[];
}) {
  const s = useSnapshot(approvalStore);
  // The selection's identity for the effect: ids joined by a character OCX ids cannot hold (XML forbids NUL).
  const key = ids.join('\u0000');
  // `key` stands for `ids` in the dependencies: the panel passes a new array on every render.
  const target = useMemo(() => ({ projectName, revision, ids }), [projectName, revision, key]);

  useEffect(() => {
    void watchObjectStatus(target);
  }, [target]);
  useEffect(() => stopWatchingObjectStatus, []);

  const shown = s.statuses ? statusDisplay(s.statuses, s.removedStatus) : null;
  const choices = (s.options ?? []).filter((o) => o.isEditable || o.id === s.defaultStatus);
  const busy = s.changing || s.othersChanging;

  let value: ReactNode;
  if (s.error) value = <span className="text-rose-600">{s.error}</span>;
  else if (!shown) value = <span className="text-slate-500">Loading…</span>;
  else if (busy)
    value = (
      <span
        role="status"
        aria-label="Changing object status"
        data-testid="object-status-spinner"
        className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-brand-100 border-t-brand-500"
      />
    );
  else if (mayChangeStatus())
    value = (
      <select
        aria-label="Object status"
        className="field-input py-1 text-sm"
        value={shown.text === VARIES_TEXT ? '' : String(shown.statusId)}
        onChange={(e) => {
          const id = Number(e.target.value);
          if (Number.isInteger(id) && e.target.value !== '') void changeObjectStatus(target, id);
        }}
      >
        {shown.text === VARIES_TEXT && (
          <option value="" disabled>
            {VARIES_TEXT}
          </option>
        )}
        {shown.text === REMOVED_TEXT && (
          <option value={String(shown.statusId)} disabled>
            {REMOVED_TEXT}
          </option>
        )}
        {choices.map((o) => (
          <option key={o.id} value={String(o.id)}>
            {o.name}
          </option>
        ))}
      </select>
    );
  else value = <span data-testid="object-status-text">{shown.text}</span>;

  return (
    <div data-property="OBJECT_STATUS" className="border-t border-slate-200 px-4 py-2 text-sm">
      <div className="flex items-center justify-between gap-3">
        <span className="whitespace-nowrap text-slate-500">Object status</span>
        {value}
      </div>
      {ids.length === 1 && shown && (
        <div className="mt-1 text-right">
          <button
            type="button"
            className="text-xs text-brand-600 hover:underline"
            aria-expanded={s.history !== null}
            onClick={() => (s.history ? hideObjectHistory() : void loadObjectHistory(target))}
          >
            {s.history ? 'Hide status history' : 'Status history'}
          </button>
        </div>
      )}
      {s.history && (
        <ol data-testid="object-status-history" className="mt-1 space-y-1 text-xs text-slate-600">
          {s.history.length === 0 && <li>No changes recorded</li>}
          {s.history.map((h) => (
            <li key={`${h.changedAt}-${h.to.id}-${h.from.name}`}>
              <span className="font-mono">{formatDate(h.changedAt)}</span> {h.changedByName} ({h.changedBy}):{' '}
              {h.from.name} → {h.to.name}
              {h.revision !== revision ? ` (rev. ${h.revision})` : ''}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
