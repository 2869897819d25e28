/**
 * Admin panel, Users tab (application.md §2 "Users tab", §6): columns picture or initials, Name, Email, User
 * type, Access to projects (count) and an expand control; the expanded row lists the user's permissions and
 * projects (with valid-until) and offers Edit and Delete. 'Add user' only with local accounts; Delete hidden
 * for administrators and for oneself.
 */
import { Fragment, useState } from 'react';
import { useSnapshot } from 'valtio';
import { type AdminUser, PROJECT_PERMISSION_PREFIX } from '../../api/contract';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { formatValidUntil } from '../logic/format';
import { projectCount } from '../logic/userAccess';
import { adminStore, deleteUser } from '../stores/admin';
import { authStore, localAccounts } from '../stores/auth';
import { UserDialog } from './UserDialog';

/** Up to two initials of a name (or of the e-mail when the name is empty). */
export function initials(name: string, email: string): string {
  return (
    (name.trim() || email)
      .split(/[\s.@_-]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]?.toUpperCase() ?? '')
      .join('') || '?'
  );
}

function Avatar({ user }: { user: AdminUser }) {
  if (user.picture) return <img src={user.picture} alt="" className="h-8 w-8 rounded-full object-cover" />;
  return (
    <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-700">
      {initials(user.name, user.email)}
    </span>
  );
}

export function UsersTab() {
  const admin = useSnapshot(adminStore);
  const { user: me } = useSnapshot(authStore);
  const [expanded, setExpanded] = useState<string | null>(null);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const permissionName = (id: string) => admin.permissions.find((p) => p.identifier === id)?.name ?? id;

  if (!admin.loaded) return <p className="text-sm text-slate-500">{admin.loading ? 'Loading users…' : ''}</p>;
  const users = [...(admin.users as AdminUser[])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div className="space-y-3">
      {localAccounts() && (
        <div className="flex justify-end">
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              setEditing(null);
              setDialogOpen(true);
            }}
          >
            Add user
          </button>
        </div>
      )}
      <table className="w-full text-left text-sm" data-testid="users-table">
        <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
          <tr>
            <th className="w-12 py-2" aria-label="Picture" />
            <th className="py-2">Name</th>
            <th className="py-2">Email</th>
            <th className="py-2">User type</th>
            <th className="py-2">Access to projects</th>
            <th className="w-10 py-2" aria-label="Expand" />
          </tr>
        </thead>
        <tbody>
          {users.map((u) => {
            const open = expanded === u.email;
            const projects = u.permissionData.filter((d) => d.identifier.startsWith(PROJECT_PERMISSION_PREFIX));
            const fixed = u.permissions.filter((p) => !p.startsWith(PROJECT_PERMISSION_PREFIX));
            return (
              <Fragment key={u.email}>
                <tr
                  data-testid={`user-row-${u.email}`}
                  className="cursor-pointer border-b border-slate-100 hover:bg-slate-50"
                  onClick={() => setExpanded(open ? null : u.email)}
                >
                  <td className="py-2">
                    <Avatar user={u} />
                  </td>
                  <td className="py-2 font-medium text-ink">{u.name}</td>
                  <td className="py-2">{u.email}</td>
                  <td className="py-2 capitalize">{u.userType}</td>
                  <td className="py-2" data-testid="project-count">
                    {projectCount(u)}
                  </td>
                  <td className="py-2">
                    <button
                      type="button"
                      aria-expanded={open}
                      aria-label={`${open ? 'Collapse' : 'Expand'} ${u.email}`}
                      className="px-2 text-slate-500"
                      onClick={(e) => {
                        e.stopPropagation();
                        setExpanded(open ? null : u.email);
                      }}
                    >
                      {open ? '▴' : '▾'}
                    </button>
                  </td>
                </tr>
                {open && (
                  <tr className="border-b border-slate-100 bg-slate-50">
                    <td />
                    <td colSpan={5} className="space-y-2 py-3">
                      <div>
                        <span className="font-medium">Permissions: </span>
                        {fixed.length ? fixed.map(permissionName).join(', ') : 'none'}
                      </div>
                      <div>
                        <span className="font-medium">Projects: </span>
                        {projects.length
                          ? projects
                              .map(
                                (d) =>
                                  `${d.identifier.slice(PROJECT_PERMISSION_PREFIX.length)} (${formatValidUntil(d.validUntil)})`,
                              )
                              .join(', ')
                          : 'none'}
                      </div>
                      {u.requirePasswordReset && <div className="text-amber-700">Must change the password</div>}
                      <div className="flex gap-2">
                        <button
                          type="button"
                          className="btn-secondary px-2 py-1 text-xs"
                          onClick={() => {
                            setEditing(u);
                            setDialogOpen(true);
                          }}
                        >
                          Edit
                        </button>
                        {u.userType !== 'administrator' && u.email !== me?.email && (
                          <button
                            type="button"
                            className="btn-secondary px-2 py-1 text-xs text-rose-700"
                            onClick={() => setDeleting(u.email)}
                          >
                            Delete
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <UserDialog user={editing} open={dialogOpen} onClose={() => setDialogOpen(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete user"
        text={`Delete the user ${deleting ?? ''}? The user can no longer sign in.`}
        confirmLabel="Delete"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const email = deleting;
          setDeleting(null);
          if (email) void deleteUser(email).catch(() => {});
        }}
      />
    </div>
  );
}
