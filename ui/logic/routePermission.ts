/**
 * The '{route}:view' permission of application.md §4 "Realtime user notification" and §6: after an
 * administrator changed the user, the UI leaves a route the user may no longer view. /admin needs
 * `admin:view`; the viewer route /{modelName} needs the project's permission `project:{NAME}`; the start
 * view and the sign-in views need none.
 */
import { PROJECT_PERMISSION_PREFIX } from '../../api/contract';

/** Routes every signed-in user may view (application.md §2). */
const OPEN_ROUTES = new Set(['login', 'register', 'error', 'changePassword']);

/** The permission needed to view `pathname` (a location path), or null when none is needed. */
export function viewPermissionOf(pathname: string): string | null {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 0) return null;
  let first = segments[0];
  try {
    first = decodeURIComponent(first);
  } catch {
    /* a stray '%' stays as it is, as App.tsx's route does */
  }
  if (OPEN_ROUTES.has(first)) return null;
  if (first === 'admin') return 'admin:view';
  if (segments.length === 1) return `${PROJECT_PERMISSION_PREFIX}${first.trim().toUpperCase()}`;
  return null;
}
