/**
 * Error view (application.md §2 "Error view"): the stored error's reason and message and a Logout button;
 * without a stored error it redirects to the start view.
 */
import { Redirect } from 'wouter';
import { useSnapshot } from 'valtio';
import { logout } from '../stores/auth';
import { clearError, errorStore } from '../stores/errors';

export function ErrorView() {
  const { error } = useSnapshot(errorStore);
  if (!error) return <Redirect to="/" replace />;
  return (
    <div className="flex flex-1 items-start justify-center px-4 pt-20">
      <div className="panel w-full max-w-lg p-8">
        <h1 className="mb-2 text-xl font-semibold text-rose-700">{error.reason}</h1>
        <p data-testid="error-message" className="text-sm text-slate-700">
          {error.message}
        </p>
        <div className="mt-6 flex gap-3">
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              clearError();
              logout();
            }}
          >
            Logout
          </button>
        </div>
      </div>
    </div>
  );
}
