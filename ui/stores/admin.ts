/**
 * The admin panel's data (application.md §2 "Admin panel": "On opening, the panel fetches the admin data if
 * not yet fetched, the available projects and the approval statuses"; §4 "Other admin state"; §5 "User
 * form (admin)"; §8 toasts). Users with their permissions and project access, the permissions, the
 * projects with their users, and the approval statuses (null until the server offers them). Actions save
 * through the admin API and reload what they changed.
 */
import { proxy } from 'valtio';
import type { AdminUser, Permission, PermissionWithUsers } from '../../api/contract';
import {
  deleteUserCall,
  getAdminUsers,
  getAllPermissions,
  getApprovalStatuses,
  getProjectPermissions,
  patchUser,
  registerUserCall,
} from '../api/admin';
import { projectIdentifier, validUntilOf } from '../logic/userAccess';
import { loadModels } from './projects';
import { showToast } from './toasts';

/** The warning toast of a failing user save (application.md §5, §8). */
export const USER_SAVE_FAILED = 'Missing or invalid user data, please check input';
/** Thrown when a registered user is not in the reloaded list (application.md §4, §8). */
export const USER_NOT_FOUND_AFTER_REGISTER = 'Registering was successful but the new user was not found.';

export const adminStore = proxy({
  loaded: false,
  loading: false,
  users: [] as AdminUser[],
  permissions: [] as Permission[],
  /** Projects (project permissions) with their users and the newest revision's date. */
  projects: [] as PermissionWithUsers[],
  /** The approval statuses; null while the server does not offer them. */
  approvalStatuses: null as unknown[] | null,
});

/** Loads users, permissions and projects (and the approval statuses); a failure is shown centrally. */
export async function reloadAdminData(): Promise<void> {
  adminStore.loading = true;
  try {
    const [users, permissions, projects, statuses] = await Promise.all([
      getAdminUsers(),
      getAllPermissions(),
      getProjectPermissions(),
      getApprovalStatuses(),
    ]);
    adminStore.users = users;
    adminStore.permissions = permissions;
    adminStore.projects = projects;
    adminStore.approvalStatuses = statuses;
    adminStore.loaded = true;
  } catch {
    /* shown by the central handler */
  } finally {
    adminStore.loading = false;
  }
}

/** Opening the panel: fetches the admin data unless already fetched, and the available projects. */
export async function openAdminPanel(): Promise<void> {
  await Promise.all([adminStore.loaded ? Promise.resolve() : reloadAdminData(), loadModels()]);
}

/** What the user form saves. `validUntil` maps project permissions to their end (absent = permanent). */
export interface UserFormValues {
  fullName: string;
  email: string;
  /** New password (add, or edit with the reset toggle); '' = unchanged. */
  password: string;
  /** The password-reset toggle: `password` is set and must be changed at the next sign-in. */
  requirePasswordReset: boolean;
  permissions: string[];
  validUntil: Record<string, string | null>;
}

/**
 * Saves an existing user (PATCH .../users?email): toast 'User {email} updated', or the warning
 * 'Missing or invalid user data, please check input' (then rethrows).
 */
export async function saveUser(email: string, f: UserFormValues): Promise<void> {
  try {
    await patchUser(email, {
      name: f.fullName,
      permissions: f.permissions,
      validUntil: pick(f.validUntil, f.permissions),
      // The password-reset toggle sets a new password that the user must change at the next sign-in.
      ...(f.requirePasswordReset && f.password ? { password: f.password, requirePasswordReset: true } : {}),
    });
  } catch (e) {
    showToast('warning', USER_SAVE_FAILED);
    throw e;
  }
  showToast('success', `User ${email.toLowerCase()} updated`);
  await reloadAdminData();
}

/**
 * Adds a user (local accounts only; application.md §4 "Registering a user by an administrator must end
 * with the new user found in the user list"): registers the account with a forced password change, reloads
 * the list, then saves the chosen permissions on it.
 * @throws Error USER_NOT_FOUND_AFTER_REGISTER when the list does not hold the new user; ApiError otherwise
 *   (after the warning toast).
 */
export async function addUser(f: UserFormValues): Promise<void> {
  const email = f.email.trim().toLowerCase();
  try {
    await registerUserCall({ email, fullName: f.fullName, password: f.password, requirePasswordReset: true });
  } catch (e) {
    showToast('warning', USER_SAVE_FAILED);
    throw e;
  }
  await reloadAdminData();
  if (!adminStore.users.some((u) => u.email === email)) {
    showToast('error', USER_NOT_FOUND_AFTER_REGISTER);
    throw new Error(USER_NOT_FOUND_AFTER_REGISTER);
  }
  await saveUser(email, { ...f, email, password: '', requirePasswordReset: true });
}

/** Deletes a user: toast 'User {email} deleted'. */
export async function deleteUser(email: string): Promise<void> {
  await deleteUserCall(email);
  showToast('success', `User ${email} deleted`);
  await reloadAdminData();
}

/**
 * Saves a project's access (the 'Edit project access' dialog): every user whose access changes gets the
 * project permission added or removed, with `validUntil` (ISO, null = permanent) for those with access.
 * Administrators always have access and are not sent.
 */
export async function saveProjectAccess(
  project: string,
  withAccess: ReadonlySet<string>,
  validUntil: string | null,
): Promise<void> {
  const id = projectIdentifier(project);
  const changed: string[] = [];
  for (const u of adminStore.users) {
    if (u.userType === 'administrator') continue;
    const had = u.permissions.includes(id);
    const has = withAccess.has(u.email);
    const ends = validUntilOf(u);
    if (had === has && (!has || (ends[id] ?? null) === validUntil)) continue;
    const permissions = has ? [...new Set([...u.permissions, id])] : u.permissions.filter((p) => p !== id);
    const until = { ...ends };
    if (has) until[id] = validUntil;
    else delete until[id];
    await patchUser(u.email, { permissions, validUntil: pick(until, permissions) });
    changed.push(u.email);
  }
  for (const email of changed) showToast('success', `User ${email} updated`);
  await reloadAdminData();
}

function pick(until: Record<string, string | null>, permissions: readonly string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const p of permissions) if (p in until) out[p] = until[p];
  return out;
}
