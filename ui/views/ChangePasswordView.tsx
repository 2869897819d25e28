/**
 * Change-password view (application.md §2, §5 "Change password", §8): current password, new password,
 * confirm password; a failure goes to the error view with 'Error changing password' or the server's
 * message; success stores the fresh token the server answers with and returns to the start view.
 */
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { authorizeUser, changePassword } from '../api/calls';
import { AuthCard, FormField } from '../components/FormField';
import { validateChangePassword } from '../logic/validation';
import { authStore, replaceToken } from '../stores/auth';
import { storeError } from '../stores/errors';
import { showToast } from '../stores/toasts';

export function ChangePasswordView() {
  const { user } = useSnapshot(authStore);
  const [, navigate] = useLocation();
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirmNewPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof values) => (v: string) => setValues((s) => ({ ...s, [k]: v }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!user) return;
    const r = validateChangePassword(values, user.email);
    setErrors(r.errors);
    if (!r.valid || busy) return;
    setBusy(true);
    try {
      const res = await changePassword({ email: user.email, ...r.values });
      // The change ended every older session, this one's token included: continue with the fresh one.
      if (res.token) replaceToken(res.token);
      showToast('success', 'Password changed');
      try {
        authStore.user = await authorizeUser();
      } catch {
        /* the session stays as it is */
      }
      navigate('/', { replace: true });
    } catch (err) {
      const msg = (err as Error).message;
      storeError({ reason: 'Error changing password', message: msg || 'Error changing password' });
      navigate('/error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Change password">
      {user?.requirePasswordReset && (
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Your password must be changed before you continue.
        </p>
      )}
      <form className="space-y-4" onSubmit={submit} noValidate>
        <FormField
          label="Current password"
          type="password"
          autoComplete="current-password"
          autoFocus
          value={values.currentPassword}
          onChange={set('currentPassword')}
          error={errors.currentPassword}
        />
        <FormField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={values.newPassword}
          onChange={set('newPassword')}
          error={errors.newPassword}
        />
        <FormField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          value={values.confirmNewPassword}
          onChange={set('confirmNewPassword')}
          error={errors.confirmNewPassword}
        />
        <button type="submit" className="btn-primary w-full py-2" disabled={busy}>
          Change password
        </button>
      </form>
    </AuthCard>
  );
}
