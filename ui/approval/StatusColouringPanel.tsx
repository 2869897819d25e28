/**
 * Approval status overview of the open revision (viewer.md §3 "Approval status"): colouring by approval
 * status with the options' colours and a count per status for the revision. A small panel at the bottom
 * right: 'Approval status' opens it; 'Colour by status' paints every part with its status's colour (and
 * gives the colours back when turned off or when comparison or quantity colouring takes over).
 */
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { approvalStore, loadStatusCounts, startStatusColouring, stopStatusColouring } from '../stores/approval';
import { appearanceStore } from '../stores/appearance';
import { viewerStore } from '../stores/viewer';

export function StatusColouringPanel({ projectName }: { projectName: string }) {
  const { revision } = useSnapshot(viewerStore);
  const { counts, colouring } = useSnapshot(approvalStore);
  const { owner } = useSnapshot(appearanceStore);
  const [open, setOpen] = useState(false);
  const on = colouring && owner === 'status';

  useEffect(() => {
    if (open && revision !== null) void loadStatusCounts(projectName, revision).catch(() => undefined);
  }, [open, projectName, revision]);
  useEffect(() => stopStatusColouring, []);

  return (
    <div className="absolute right-3 bottom-9 z-10 flex flex-col items-end gap-1">
      {/* The comparison summary takes this corner while comparison is on. */}
      {open && owner !== 'comparison' && (
        <section aria-label="Approval status" data-testid="status-counts" className="panel w-60 p-3 text-sm">
          <label className="mb-2 flex items-center gap-2">
            <input
              type="checkbox"
              checked={on}
              disabled={revision === null}
              onChange={(e) => {
                if (revision === null) return;
                if (e.target.checked) void startStatusColouring(projectName, revision);
                else stopStatusColouring();
              }}
            />
            Colour by status
          </label>
          {counts ? (
            <ul className="space-y-1">
              {counts.map((c) => (
                <li key={c.approvalStatusId} data-status={c.name} className="flex items-center gap-2">
                  <span
                    aria-hidden="true"
                    className="inline-block h-3 w-3 rounded-sm border border-slate-300"
                    style={{ background: c.color }}
                  />
                  <span className="flex-1 truncate">{c.name}</span>
                  <span className="font-mono text-slate-600" data-testid="status-count">
                    {c.count}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-slate-500">Loading…</p>
          )}
        </section>
      )}
      <button
        type="button"
        className="btn-secondary py-1 text-xs"
        aria-expanded={open}
        onClick={() => setOpen((x) => !x)}
      >
        Approval status
      </button>
    </div>
  );
}
