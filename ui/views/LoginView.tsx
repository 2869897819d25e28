/**
 * Login view (application.md §2 "Login view", §5 "Login", §8): e-mail and password, trimmed; Enter
 * submits; a refusal shows the server's message under the password field; an unexpected error goes to
 * /error; after login requirePasswordReset → /changePassword, otherwise /. With an identity provider the
 * view is one Login button that leaves for the provider (no password, no registration links).
 */
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { AuthCard, FormField } from '../components/FormField';
import { validateLogin } from '../logic/validation';
import {
  authStore,
  identityProvider,
  localAccounts,
  login,
  registrationAllowed,
  startOidcSignIn,
} from '../stores/auth';
import { storeError } from '../stores/errors';

/** The spec's text for an unexpected login error (application.md §8). */
export const LOGIN_ERROR_TEXT =
  'An error occurred while logging in. Please try again. If the error persists, contact your administrator.';

/** The error view's reason for a failed identity-provider sign-in (application.md §8). */
export const AUTH_ERROR_REASON = 'Authentication Error';

/** Login with an identity provider: one button that leaves for the provider (application.md §4). */
function ProviderLogin() {
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  async function start() {
    setBusy(true);
    try {
      await startOidcSignIn();
    } catch (e) {
      setBusy(false);
      storeError({ reason: AUTH_ERROR_REASON, message: (e as Error).message });
      navigate('/error');
    }
  }
  return (
    <AuthCard title="Login">
      <p className="mb-4 text-sm text-slate-600">Sign in with your organisation's account.</p>
      <button type="button" className="btn-primary w-full py-2" disabled={busy} onClick={() => void start()}>
        Login
      </button>
    </AuthCard>
  );
}

export function LoginView() {
  const { config } = useSnapshot(authStore);
  if (config && identityProvider()) return <ProviderLogin />;
  return <PasswordLogin />;
}

function PasswordLogin() {
  const { config } = useSnapshot(authStore);
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const r = validateLogin({ email, password });
    setErrors(r.errors);
    if (!r.valid || busy) return;
    setBusy(true);
    const outcome = await login(r.values.email, r.values.password);
    setBusy(false);
    if (outcome.type === 'ok') navigate(outcome.requirePasswordReset ? '/changePassword' : '/', { replace: true });
    else if (outcome.type === 'rejected') setErrors({ password: outcome.message });
    else {
      storeError({ reason: 'Login failed', message: LOGIN_ERROR_TEXT });
      navigate('/error');
    }
  }

  return (
    <AuthCard title="Login">
      <form className="space-y-4" onSubmit={submit} noValidate>
        <FormField
          label="E-mail"
          type="email"
          autoComplete="username"
          autoFocus
          value={email}
          onChange={setEmail}
          error={errors.email}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <button type="submit" className="btn-primary w-full py-2" disabled={busy}>
          Login
        </button>
      </form>
      {config && registrationAllowed() && (
        <p className="mt-6 text-center text-sm text-slate-600">
          No account yet?{' '}
          <Link href="/register" className="font-medium text-brand-600 hover:underline">
            Register
          </Link>
        </p>
      )}
      {config && !config.adminRegistered && localAccounts() && (
        <p className="mt-2 text-center text-sm text-slate-600">
          No administrator yet?{' '}
          <Link href="/register?admin=1" className="font-medium text-brand-600 hover:underline">
            Admin registration
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
