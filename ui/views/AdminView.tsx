/**
 * Admin route (application.md §2 "/admin", §6). This slice shows the signed-in user's account, user type
 * and permissions; the tabs Users, Projects, Scheduling and Settings arrive with the admin issue.
 */
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { authStore, hasPermission } from '../stores/auth';

export function AdminView() {
  const { user, config } = useSnapshot(authStore);
  if (!user) return null;
  const isAdmin = hasPermission('admin:view');
  return (
    <div className="flex-1 overflow-auto px-8 py-8">
      <div className="mx-auto max-w-3xl space-y-6">
        <div className="flex items-center justify-between">
          <h1 className="text-2xl font-semibold text-ink">Admin panel</h1>
          <Link href="/" className="btn-secondary">
            Back to projects
          </Link>
        </div>
        {!isAdmin && (
          <p role="alert" className="rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-800">
            You do not have the admin:view permission. Ask an administrator for access.
          </p>
        )}
        <section className="panel p-6">
          <h2 className="mb-4 text-sm font-semibold tracking-wide text-slate-500 uppercase">Signed-in user</h2>
          <dl className="grid grid-cols-[10rem_1fr] gap-y-2 text-sm">
            <dt className="text-slate-500">Name</dt>
            <dd>{user.name}</dd>
            <dt className="text-slate-500">E-mail</dt>
            <dd>{user.email}</dd>
            <dt className="text-slate-500">User type</dt>
            <dd>{user.userType}</dd>
            {config && (
              <>
                <dt className="text-slate-500">Authentication</dt>
                <dd>{config.authenticationProvider}</dd>
                <dt className="text-slate-500">Instance</dt>
                <dd>{config.instance}</dd>
              </>
            )}
          </dl>
        </section>
        <section className="panel p-6">
          <h2 className="mb-4 text-sm font-semibold tracking-wide text-slate-500 uppercase">Permissions</h2>
          {user.permissions.length === 0 ? (
            <p className="text-sm text-slate-500">No permissions.</p>
          ) : (
            <ul data-testid="permissions" className="flex flex-wrap gap-2">
              {user.permissions.map((p) => (
                <li key={p} className="rounded-full bg-brand-50 px-3 py-1 font-mono text-xs text-brand-700">
                  {p}
                </li>
              ))}
            </ul>
          )}
          {user.userType === 'administrator' && (
            <p className="mt-3 text-xs text-slate-500">Administrators hold every permission.</p>
          )}
        </section>
      </div>
    </div>
  );
}
