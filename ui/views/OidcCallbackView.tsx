/**
 * Where the identity provider sends the browser back (/login/callback; application.md §4 identity-provider
 * variant, §8): trades the code for Keelson's session within the auth wait, then opens the start view.
 * A provider error (`error`, `error_description`), the timeout ('Timeout on authentication to auth0') or
 * a refusal goes to the error view under 'Authentication Error'.
 */
import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { finishOidcSignIn } from '../stores/auth';
import { storeError } from '../stores/errors';
import { AUTH_ERROR_REASON } from './LoginView';

/** Callback queries already handled (a state is valid once; a second effect run must not reuse it). */
const handled = new Set<string>();

export function OidcCallbackView() {
  const search = useSearch();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (handled.has(search)) return;
    handled.add(search);
    finishOidcSignIn(search).then(
      () => navigate('/', { replace: true }),
      (e: unknown) => {
        storeError({ reason: AUTH_ERROR_REASON, message: (e as Error).message });
        navigate('/error', { replace: true });
      },
    );
  }, [search, navigate]);
  return (
    <div role="status" className="flex flex-1 items-center justify-center text-sm text-slate-500">
      Signing in…
    </div>
  );
}
