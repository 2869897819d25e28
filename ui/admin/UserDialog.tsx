/**
 * The add / edit user dialog of the Users tab (application.md §2 "Users tab", §5 "User form (admin)", §6):
 * name, e-mail (fixed when editing), password (new users; when editing only with the password-reset toggle),
 * the fixed permissions and the projects. A new e-mail of the organisation domain starts with every project
 * and upload:model, any other e-mail with none. Granting admin:view first asks for acknowledgement.
 * Texts come from the contract's schemas (UserFormSchema, UserEditFormSchema).
 */
import { Dialog, DialogPanel, DialogTitle, Field, Label, Switch } from '@headlessui/react';
import { useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { type AdminUser, UserEditFormSchema, UserFormSchema } from '../../api/contract';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormField } from '../components/FormField';
import { validateForm } from '../logic/validation';
import { defaultPermissionsFor, projectIdentifier, validUntilOf } from '../logic/userAccess';
import { USER_SAVE_FAILED, addUser, adminStore, saveUser } from '../stores/admin';
import { authStore } from '../stores/auth';
import { showToast } from '../stores/toasts';

/** The acknowledgement text before granting admin:view (application.md §5). */
export const adminGrantWarning = (who: string) =>
  `This will grant ${who} unlimited privileges to view, edit and delete all resources.`;

export interface UserDialogProps {
  /** The user to edit; null adds a new one. */
  user: AdminUser | null;
  open: boolean;
  onClose: () => void;
}

type FormKey = 'fullName' | 'email' | 'password';

export function UserDialog({ user, open, onClose }: UserDialogProps) {
  const admin = useSnapshot(adminStore);
  const { config } = useSnapshot(authStore);
  const projects = useMemo(() => admin.projects.map((p) => p.name), [admin.projects]);
  const fixed = useMemo(() => admin.permissions.filter((p) => p.category !== 'project'), [admin.permissions]);
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [reset, setReset] = useState(false);
  const [permissions, setPermissions] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<Partial<Record<FormKey, string>>>({});
  const [askAdmin, setAskAdmin] = useState(false);
  const [busy, setBusy] = useState(false);
  const isAdministrator = user?.userType === 'administrator';

  useEffect(() => {
    if (!open) return;
    setFullName(user?.name ?? '');
    setEmail(user?.email ?? '');
    setPassword('');
    setReset(false);
    setPermissions(new Set(user ? user.permissions : []));
    setErrors({});
    setBusy(false);
  }, [open, user]);

  function changeEmail(value: string) {
    setEmail(value);
    // The organisation-domain rule of a new user (application.md §5).
    if (!user) setPermissions(new Set(defaultPermissionsFor(value, config?.organizationDomain ?? '', projects)));
  }

  function toggle(id: string, on: boolean) {
    if (on && id === 'admin:view' && !permissions.has(id)) {
      setAskAdmin(true);
      return;
    }
    const next = new Set(permissions);
    if (on) next.add(id);
    else next.delete(id);
    setPermissions(next);
  }

  async function save() {
    const needsPassword = !user || reset;
    const r = needsPassword
      ? validateForm<FormKey>(UserFormSchema, { fullName, email, password })
      : validateForm<'fullName'>(UserEditFormSchema, { fullName });
    setErrors(r.errors);
    if (!r.valid) {
      showToast('warning', USER_SAVE_FAILED);
      return;
    }
    const values = {
      fullName: fullName.trim(),
      email: user?.email ?? email.trim(),
      password: needsPassword ? password : '',
      requirePasswordReset: reset,
      permissions: [...permissions],
      validUntil: user ? validUntilOf(user as AdminUser) : {},
    };
    setBusy(true);
    try {
      if (user) await saveUser(user.email, values);
      else await addUser(values);
      onClose();
    } catch {
      /* the toast has said why */
    } finally {
      setBusy(false);
    }
  }

  const who = user?.email ?? (email.trim() || 'this user');
  const box = (id: string, label: string, description?: string) => (
    <label key={id} className="flex items-start gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        className="mt-0.5"
        checked={isAdministrator || permissions.has(id)}
        disabled={isAdministrator}
        onChange={(e) => toggle(id, e.target.checked)}
      />
      <span>
        {label}
        {description && <span className="block text-xs text-slate-500">{description}</span>}
      </span>
    </label>
  );

  return (
    <Dialog open={open} onClose={onClose} className="relative z-40">
      <div className="fixed inset-0 bg-slate-900/20" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel data-testid="user-dialog" className="panel flex max-h-[90vh] w-full max-w-lg flex-col p-5">
          <DialogTitle className="mb-4 text-base font-semibold text-ink">{user ? 'Edit user' : 'Add user'}</DialogTitle>
          <form
            className="min-h-0 flex-1 space-y-3 overflow-auto pr-1"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <FormField label="Name" value={fullName} onChange={setFullName} error={errors.fullName} />
            <FormField
              label="Email"
              type="email"
              value={email}
              onChange={changeEmail}
              error={errors.email}
              disabled={!!user}
              readOnly={!!user}
            />
            {user && (
              <Field className="flex items-center gap-2">
                <Switch
                  checked={reset}
                  onChange={setReset}
                  className="group relative inline-flex h-5 w-9 items-center rounded-full bg-slate-300 data-checked:bg-brand-500"
                >
                  <span className="inline-block h-4 w-4 translate-x-0.5 rounded-full bg-white transition group-data-checked:translate-x-4" />
                </Switch>
                <Label className="text-sm text-slate-700">Reset password</Label>
              </Field>
            )}
            {(!user || reset) && (
              <FormField
                label={user ? 'New password' : 'Password'}
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={setPassword}
                error={errors.password}
              />
            )}
            <fieldset className="space-y-1">
              <legend className="mb-1 text-sm font-medium text-slate-700">Permissions</legend>
              {isAdministrator && <p className="text-xs text-slate-500">An administrator holds every permission.</p>}
              {fixed.map((p) => box(p.identifier, p.name, p.description))}
            </fieldset>
            <fieldset className="space-y-1">
              <legend className="mb-1 text-sm font-medium text-slate-700">Access to projects</legend>
              {projects.length === 0 && <p className="text-xs text-slate-500">No projects</p>}
              {projects.map((name) => box(projectIdentifier(name), name))}
            </fieldset>
            <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
          </form>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="btn-primary" disabled={busy} onClick={() => void save()}>
              Save
            </button>
          </div>
          <ConfirmDialog
            open={askAdmin}
            title="Grant administration"
            text={adminGrantWarning(who)}
            confirmLabel="I understand"
            onCancel={() => setAskAdmin(false)}
            onConfirm={() => {
              setAskAdmin(false);
              setPermissions(new Set([...permissions, 'admin:view']));
            }}
          />
        </DialogPanel>
      </div>
    </Dialog>
  );
}
