/**
 * The application shell's top bar (application.md §2 "Application shell", viewer.md §1): product title,
 * model header with a tooltip (version, revision, last-updated date), the version menu (the label
 * 'release-2025.1 B102'; Help opens the user guide at /docs/ of the same host in a new tab; 'Server logs'
 * for administrators downloads the zip of the server's logs) and the user menu (e-mail, Admin for
 * admin:view, 'Admin registration' while no administrator exists, Log out).
 */
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { VERSION_LABEL } from '../../api/contract';
import { downloadServerLogs } from '../api/admin';
import { formatDate } from '../logic/format';
import { authStore, hasPermission, localAccounts, logout, registrationAllowed } from '../stores/auth';
import { currentProjectStore } from '../stores/currentProject';

function ModelHeader() {
  const { modelName, info } = useSnapshot(currentProjectStore);
  if (!modelName) return null;
  const lines = info
    ? [
        `Version: ${info.projectInfo.projectVersion || '-'}`,
        `Revision: ${info.revision}`,
        `Last updated: ${formatDate(info.lastUpdatedDate)}`,
      ]
    : [];
  return (
    <div className="group relative ml-4 flex items-center gap-2 border-l border-slate-600 pl-4">
      <button
        type="button"
        data-testid="model-name"
        className="cursor-default text-sm font-semibold tracking-wide text-white"
        aria-describedby="model-tooltip"
      >
        {modelName}
      </button>
      {info && <span className="rounded bg-slate-700 px-1.5 py-0.5 text-xs text-slate-200">Rev. {info.revision}</span>}
      {info && (
        <div
          id="model-tooltip"
          role="tooltip"
          className="invisible absolute top-full left-4 z-40 mt-2 w-64 rounded-md bg-slate-900 px-3 py-2 text-xs text-slate-100 opacity-0 shadow-lg transition-opacity delay-300 group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100"
        >
          {lines.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      )}
    </div>
  );
}

/** Where Help leads: the user guide the server renders from the repository's docs/. */
export const HELP_PATH = '/docs/';

function VersionMenu() {
  const { user } = useSnapshot(authStore);
  const itemCls = 'block w-full px-4 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100';
  return (
    <Menu as="div" className="relative">
      <MenuButton
        title="Version"
        className="rounded px-2 py-1 text-xs text-slate-400 hover:bg-slate-700 hover:text-white"
      >
        {VERSION_LABEL}
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="z-50 mt-2 w-48 rounded-md border border-slate-200 bg-white py-1 shadow-lg outline-none"
      >
        <MenuItem>
          <a href={HELP_PATH} target="_blank" rel="noopener" className={itemCls}>
            Help
          </a>
        </MenuItem>
        {user && hasPermission('admin:view') && (
          <MenuItem>
            <button type="button" className={itemCls} onClick={() => void downloadServerLogs().catch(() => {})}>
              Server logs
            </button>
          </MenuItem>
        )}
      </MenuItems>
    </Menu>
  );
}

function UserMenu() {
  const { user, config } = useSnapshot(authStore);
  const [, navigate] = useLocation();
  if (!user) return null;
  const initials = (user.name || user.email)
    .split(/\s+/)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .slice(0, 2)
    .join('');
  const itemCls = 'block w-full px-4 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100';
  return (
    <Menu as="div" className="relative">
      <MenuButton
        aria-label="User menu"
        className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-500 text-xs font-semibold text-white hover:bg-brand-600"
      >
        {initials || '?'}
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="z-50 mt-2 w-60 rounded-md border border-slate-200 bg-white py-1 shadow-lg outline-none"
      >
        <div className="border-b border-slate-100 px-4 py-2">
          <div className="text-sm font-medium text-slate-900">{user.name}</div>
          <div data-testid="user-email" className="truncate text-xs text-slate-500">
            {user.email}
          </div>
        </div>
        {hasPermission('admin:view') && (
          <MenuItem>
            <button type="button" className={itemCls} onClick={() => navigate('/admin')}>
              Admin
            </button>
          </MenuItem>
        )}
        {config && !config.adminRegistered && localAccounts() && (
          <MenuItem>
            <button type="button" className={itemCls} onClick={() => navigate('/register?admin=1')}>
              Admin registration
            </button>
          </MenuItem>
        )}
        {localAccounts() && (
          <MenuItem>
            <button type="button" className={itemCls} onClick={() => navigate('/changePassword')}>
              Change password
            </button>
          </MenuItem>
        )}
        <MenuItem>
          <button type="button" className={itemCls} onClick={() => logout()}>
            Log out
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}

export function TopBar() {
  const { user, config } = useSnapshot(authStore);
  const [location] = useLocation();
  return (
    <header className="flex h-12 shrink-0 items-center bg-ink px-4 text-white shadow">
      <Link href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight text-white">
        <svg viewBox="0 0 24 24" className="h-5 w-5 text-brand-500" fill="currentColor" aria-hidden="true">
          <path d="M2 14h20l-3 6H5l-3-6Zm9-12h2v10h-2V2Zm2 2 6 7h-6V4Z" />
        </svg>
        Keelson
      </Link>
      <ModelHeader />
      <div className="ml-auto flex items-center gap-4">
        <VersionMenu />
        {user ? (
          <UserMenu />
        ) : (
          config &&
          registrationAllowed() &&
          location !== '/register' && (
            <Link href="/register" className="text-sm text-slate-200 hover:text-white">
              Register
            </Link>
          )
        )}
      </div>
    </header>
  );
}
