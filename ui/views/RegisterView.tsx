/**
 * Register view (application.md §2 "Register view", §5 "Register"): e-mail, full name, password, confirm
 * password; the Register button is disabled once the request starts; success shows 'Registration
 * successful. You can now login.' with a link to login. /register?admin=1 is the admin registration.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { register } from '../api/calls';
import { AuthCard, FormField } from '../components/FormField';
import { validateRegister } from '../logic/validation';
import { authStore, localAccounts, refreshConfig, registrationAllowed } from '../stores/auth';

type Errors = Partial<Record<'email' | 'fullName' | 'password' | 'confirmPassword' | 'form', string>>;

export function RegisterView() {
  const search = useSearch();
  const { config, user } = useSnapshot(authStore);
  const isAdmin = new URLSearchParams(search).get('admin') === '1';
  const [values, setValues] = useState({ email: '', fullName: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [started, setStarted] = useState(false);
  const [done, setDone] = useState(false);
  const set = (k: keyof typeof values) => (v: string) => setValues((s) => ({ ...s, [k]: v }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (started) return;
    const r = validateRegister(values);
    setErrors(r.errors);
    if (!r.valid) return;
    setStarted(true);
    try {
      await register({
        email: r.values.email,
        password: r.values.password,
        fullName: r.values.fullName,
        ...(isAdmin ? { registerAdmin: true } : {}),
      });
      setDone(true);
      if (isAdmin) void refreshConfig();
    } catch (err) {
      setErrors({ form: (err as Error).message });
      setStarted(false);
    }
  }

  const title = isAdmin ? 'Admin registration' : 'Register';
  // With an identity provider accounts come from it: neither registration is offered (application.md §6).
  if (config && (isAdmin ? !localAccounts() : !registrationAllowed())) {
    return (
      <AuthCard title="Register">
        <p className="text-sm text-slate-600">Registration is not enabled on this server.</p>
        <Link href="/login" className="mt-4 inline-block text-sm font-medium text-brand-600 hover:underline">
          Back to login
        </Link>
      </AuthCard>
    );
  }
  if (done) {
    return (
      <AuthCard title={title}>
        <p role="status" className="text-sm text-emerald-700">
          Registration successful. You can now login.
        </p>
        {user ? (
          <Link href="/" className="mt-4 inline-block text-sm font-medium text-brand-600 hover:underline">
            Back to projects
          </Link>
        ) : (
          <Link href="/login" className="mt-4 inline-block text-sm font-medium text-brand-600 hover:underline">
            Login
          </Link>
        )}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title}>
      <form className="space-y-4" onSubmit={submit} noValidate>
        <FormField
          label="E-mail"
          type="email"
          autoComplete="username"
          autoFocus
          value={values.email}
          onChange={set('email')}
          error={errors.email}
        />
        <FormField
          label="Full name"
          autoComplete="name"
          value={values.fullName}
          onChange={set('fullName')}
          error={errors.fullName}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
        />
        <FormField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={set('confirmPassword')}
          error={errors.confirmPassword}
        />
        {errors.form && (
          <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700">
            {errors.form}
          </p>
        )}
        <button type="submit" className="btn-primary w-full py-2" disabled={started}>
          Register
        </button>
      </form>
      {!user && (
        <p className="mt-6 text-center text-sm text-slate-600">
          Already registered?{' '}
          <Link href="/login" className="font-medium text-brand-600 hover:underline">
            Login
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
