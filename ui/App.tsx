/**
 * Routes and guards of application.md §2 (history mode, base /): / , /error, /login, /login/callback (the
 * identity provider's return, §4), /register,
 * /changePassword, /admin and /{modelName}?revision=N.
 */
import type { ReactNode } from 'react';
import { Redirect, Route, Switch, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { NoticeDialog } from './components/NoticeDialog';
import { TopBar } from './components/TopBar';
import { Toasts } from './components/Toasts';
import { authStore, OIDC_CALLBACK_PATH } from './stores/auth';
import { AdminView } from './views/AdminView';
import { ChangePasswordView } from './views/ChangePasswordView';
import { ErrorView } from './views/ErrorView';
import { LoginView } from './views/LoginView';
import { OidcCallbackView } from './views/OidcCallbackView';
import { RegisterView } from './views/RegisterView';
import { StartView } from './views/StartView';
import { ViewerView } from './views/ViewerView';

function Splash() {
  return <div className="flex flex-1 items-center justify-center text-sm text-slate-500">Loading…</div>;
}

/**
 * Routes that require login: not signed in → /login. A user who must change the password (set by an
 * administrator, application.md §4) is sent to /changePassword from every other route.
 */
function RequireAuth({ children, passwordChange = false }: { children: ReactNode; passwordChange?: boolean }) {
  const { ready, user } = useSnapshot(authStore);
  if (!ready) return <Splash />;
  if (!user) return <Redirect to="/login" replace />;
  if (user.requirePasswordReset && !passwordChange) return <Redirect to="/changePassword" replace />;
  return <>{children}</>;
}

/**
 * /login and /register: only when not authenticated, otherwise redirected to /. Exception: the admin
 * registration (/register?admin=1) stays reachable while no administrator is registered, because the
 * viewer's user menu offers it (viewer.md §1, application.md §6).
 */
function GuestOnly({
  children,
  allowAdminRegistration = false,
}: {
  children: ReactNode;
  allowAdminRegistration?: boolean;
}) {
  const { ready, user, config } = useSnapshot(authStore);
  const search = useSearch();
  if (!ready) return <Splash />;
  const adminReg =
    allowAdminRegistration && new URLSearchParams(search).get('admin') === '1' && config && !config.adminRegistered;
  if (user && !adminReg) return <Redirect to="/" replace />;
  return <>{children}</>;
}

export function App() {
  return (
    <div className="flex h-full flex-col">
      <TopBar />
      <main className="relative flex min-h-0 flex-1 flex-col">
        <Switch>
          <Route path="/login">
            <GuestOnly>
              <LoginView />
            </GuestOnly>
          </Route>
          <Route path={OIDC_CALLBACK_PATH}>
            <GuestOnly>
              <OidcCallbackView />
            </GuestOnly>
          </Route>
          <Route path="/register">
            <GuestOnly allowAdminRegistration>
              <RegisterView />
            </GuestOnly>
          </Route>
          <Route path="/error">
            <ErrorView />
          </Route>
          <Route path="/changePassword">
            <RequireAuth passwordChange>
              <ChangePasswordView />
            </RequireAuth>
          </Route>
          <Route path="/admin">
            <RequireAuth>
              <AdminView />
            </RequireAuth>
          </Route>
          <Route path="/">
            <RequireAuth>
              <StartView />
            </RequireAuth>
          </Route>
          <Route path="/:modelName">
            {(params) => (
              <RequireAuth>
                <ViewerView key={params.modelName} modelName={safeDecode(params.modelName)} />
              </RequireAuth>
            )}
          </Route>
        </Switch>
      </main>
      <Toasts />
      <NoticeDialog />
    </div>
  );
}

/** Decodes a path segment; wouter may already have decoded it, so a stray '%' is kept as is. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
