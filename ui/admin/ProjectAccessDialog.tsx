/**
 * The 'Edit project access' dialog (application.md §2 "Projects tab"): checkbox lists by e-mail, 'Users
 * with access' (checked) and 'Users without access' (unchecked); administrators are locked (they always
 * have access); a date picker sets until when the users with access keep it (empty = 'Permanent');
 * Cancel and Save.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { AdminUser } from '../../api/contract';
import { projectIdentifier, validUntilOf } from '../logic/userAccess';
import { adminStore, saveProjectAccess } from '../stores/admin';

export interface ProjectAccessDialogProps {
  project: string | null;
  onClose: () => void;
}

/** The date picker's value (YYYY-MM-DD) of a valid-until, '' for permanent. */
const toDay = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD') : '');
/** The valid-until of a picked day: the end of that day (local time), null for none. */
const fromDay = (day: string) => (day ? dayjs(day).endOf('day').toISOString() : null);

export function ProjectAccessDialog({ project, onClose }: ProjectAccessDialogProps) {
  const { users } = useSnapshot(adminStore);
  const id = project ? projectIdentifier(project) : '';
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [day, setDay] = useState('');
  const [busy, setBusy] = useState(false);
  const sorted = useMemo(() => [...(users as AdminUser[])].sort((a, b) => a.email.localeCompare(b.email)), [users]);
  const initially = useMemo(
    () =>
      new Set(sorted.filter((u) => u.userType === 'administrator' || u.permissions.includes(id)).map((u) => u.email)),
    [sorted, id],
  );

  useEffect(() => {
    if (!project) return;
    setChecked(new Set(initially));
    // The shared valid-until of the users with access, when they all have the same one.
    const ends = new Set(
      sorted
        .filter((u) => u.userType !== 'administrator' && u.permissions.includes(id))
        .map((u) => validUntilOf(u)[id] ?? null),
    );
    setDay(ends.size === 1 ? toDay([...ends][0]) : '');
    setBusy(false);
  }, [project, initially, sorted, id]);

  const list = (title: string, members: AdminUser[]) => (
    <fieldset className="space-y-1">
      <legend className="mb-1 text-sm font-medium text-slate-700">{title}</legend>
      {members.length === 0 && <p className="text-xs text-slate-500">None</p>}
      {members.map((u) => {
        const locked = u.userType === 'administrator';
        return (
          <label key={u.email} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={locked || checked.has(u.email)}
              disabled={locked}
              onChange={(e) => {
                const next = new Set(checked);
                if (e.target.checked) next.add(u.email);
                else next.delete(u.email);
                setChecked(next);
              }}
            />
            {u.email}
            {locked && <span className="text-xs text-slate-400">(administrator)</span>}
          </label>
        );
      })}
    </fieldset>
  );

  return (
    <Dialog open={project !== null} onClose={onClose} className="relative z-40">
      <div className="fixed inset-0 bg-slate-900/20" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          data-testid="project-access-dialog"
          className="panel flex max-h-[90vh] w-full max-w-lg flex-col p-5"
        >
          <DialogTitle className="mb-1 text-base font-semibold text-ink">Edit project access</DialogTitle>
          <p className="mb-4 text-xs text-slate-500">{project}</p>
          <div className="min-h-0 flex-1 space-y-4 overflow-auto">
            {list(
              'Users with access',
              sorted.filter((u) => initially.has(u.email)),
            )}
            {list(
              'Users without access',
              sorted.filter((u) => !initially.has(u.email)),
            )}
            <label className="block space-y-1 text-sm text-slate-700">
              <span className="font-medium">Valid until</span>
              <input
                type="date"
                className="field-input"
                value={day}
                min={dayjs().format('YYYY-MM-DD')}
                onChange={(e) => setDay(e.target.value)}
              />
              <span className="block text-xs text-slate-500">Empty: Permanent</span>
            </label>
          </div>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="btn-primary"
              disabled={busy}
              onClick={() => {
                if (!project) return;
                setBusy(true);
                saveProjectAccess(project, checked, fromDay(day))
                  .then(onClose)
                  .catch(() => setBusy(false));
              }}
            >
              Save
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
