/**
 * The notice dialog of application.md §2 "Application shell" and §4 "Realtime user notification": the
 * server sends 'userNotification' to the room keyed by the user's e-mail when an administrator changes
 * or deletes the user.
 * - user-updated: the dialog says 'Your user data and/or privileges have been updated by an
 *   administrator.'; on Confirm the permissions (authorize-user) and the model list are reloaded, and a
 *   route the user may no longer view ('{route}:view', ui/logic/routePermission.ts) is left for /.
 *   Rights are read per request on the server, so the session's token stays valid.
 * - user-deleted: the user is logged out and the dialog says 'Your user account has been deleted by an
 *   administrator.'
 */
import { proxy } from 'valtio';
import { navigate } from 'wouter/use-browser-location';
import type { UserNotification } from '../../api/contract';
import { authorizeUser } from '../api/calls';
import { joinUserRoom, onUserNotification } from '../api/realtime';
import { viewPermissionOf } from '../logic/routePermission';
import { authStore, hasPermission, logout } from './auth';
import { loadModels } from './projects';

/** The spec's notice texts (application.md §4, §8). */
export const NOTICE_TEXTS: Readonly<Record<UserNotification['kind'], string>> = {
  'user-updated': 'Your user data and/or privileges have been updated by an administrator.',
  'user-deleted': 'Your user account has been deleted by an administrator.',
};

/** The notice on screen, or null. */
export const noticeStore = proxy({
  notice: null as { kind: UserNotification['kind']; text: string } | null,
});

/** Shows a notice; a deleted user is logged out first (the dialog then shows on /login). */
export function receiveNotice(n: UserNotification): void {
  const user = authStore.user;
  if (!user || n.email.toLowerCase() !== user.email.toLowerCase()) return;
  if (n.kind === 'user-deleted') logout();
  noticeStore.notice = { kind: n.kind, text: NOTICE_TEXTS[n.kind] };
}

/**
 * Confirm of the dialog: closes it; after 'user-updated' reloads permissions and models and leaves a
 * route the user may no longer view. A failing reload is handled centrally (a revoked session → /login).
 */
export async function confirmNotice(): Promise<void> {
  const notice = noticeStore.notice;
  noticeStore.notice = null;
  if (notice?.kind !== 'user-updated' || !authStore.user) return;
  try {
    authStore.user = await authorizeUser();
  } catch {
    return;
  }
  await loadModels();
  const needed = viewPermissionOf(window.location.pathname);
  if (needed && !hasPermission(needed)) navigate('/', { replace: true });
}

/** Listens in the user's e-mail room while signed in (NoticeDialog calls it when the session changes). */
export function watchUserNotices(token: string, email: string): void {
  joinUserRoom(token, email);
}

onUserNotification(receiveNotice);
