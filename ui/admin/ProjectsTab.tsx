/**
 * Admin panel, Projects tab (application.md §2 "Projects tab"): columns Name, Date uploaded (the newest
 * revision's last update, 'ddd DD.MM.YYYY H:mm:ss', newest first), Users with access (count) and an expand
 * control; clicking a row expands it to the users with access (Users with access, Valid until —
 * 'Permanent' for the permanent value —, User type; sorted by name) and 'Edit user access'.
 */
import { Fragment, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { PermissionWithUsers } from '../../api/contract';
import { formatDate, formatValidUntil } from '../logic/format';
import { adminStore } from '../stores/admin';
import { ProjectAccessDialog } from './ProjectAccessDialog';

/** Projects newest first by the date uploaded (projects without a revision last). */
export function sortByDateUploaded<T extends { date: string | null; name: string }>(projects: readonly T[]): T[] {
  const t = (p: T) => (p.date ? Date.parse(p.date) : Number.NEGATIVE_INFINITY);
  return [...projects].sort((a, b) => t(b) - t(a) || a.name.localeCompare(b.name));
}

export function ProjectsTab() {
  const admin = useSnapshot(adminStore);
  const [expanded, setExpanded] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  if (!admin.loaded) return <p className="text-sm text-slate-500">{admin.loading ? 'Loading projects…' : ''}</p>;
  const projects = sortByDateUploaded(admin.projects as PermissionWithUsers[]);
  return (
    <div>
      {projects.length === 0 && <p className="text-sm text-slate-500">No projects</p>}
      <table className="w-full text-left text-sm" data-testid="projects-table">
        <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
          <tr>
            <th className="py-2">Name</th>
            <th className="py-2">Date uploaded</th>
            <th className="py-2">Users with access</th>
            <th className="w-10 py-2" aria-label="Expand" />
          </tr>
        </thead>
        <tbody>
          {projects.map((p) => {
            const open = expanded === p.name;
            const users = [...p.users].sort((a, b) => a.name.localeCompare(b.name));
            return (
              <Fragment key={p.name}>
                <tr
                  data-testid={`project-row-${p.name}`}
                  className="cursor-pointer border-b border-slate-100 hover:bg-slate-50"
                  onClick={() => setExpanded(open ? null : p.name)}
                >
                  <td className="py-2 font-medium text-ink">{p.name}</td>
                  <td className="py-2">{formatDate(p.date)}</td>
                  <td className="py-2" data-testid="user-count">
                    {p.users.length}
                  </td>
                  <td className="py-2 text-slate-500" aria-hidden="true">
                    {open ? '▴' : '▾'}
                  </td>
                </tr>
                {open && (
                  <tr className="border-b border-slate-100 bg-slate-50">
                    <td colSpan={4} className="px-4 py-3">
                      <table className="w-full text-left text-sm" data-testid={`project-users-${p.name}`}>
                        <thead className="text-xs text-slate-500">
                          <tr>
                            <th className="py-1">Users with access</th>
                            <th className="py-1">Valid until</th>
                            <th className="py-1">User type</th>
                          </tr>
                        </thead>
                        <tbody>
                          {users.map((u) => (
                            <tr key={u.email}>
                              <td className="py-1">
                                {u.name} <span className="text-slate-500">{u.email}</span>
                              </td>
                              <td className="py-1">{formatValidUntil(u.validUntil)}</td>
                              <td className="py-1 capitalize">{u.userType}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                      <button
                        type="button"
                        className="btn-secondary mt-2 px-2 py-1 text-xs"
                        onClick={() => setEditing(p.name)}
                      >
                        Edit user access
                      </button>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <ProjectAccessDialog project={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
