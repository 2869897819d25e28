/**
 * Admin panel (application.md §2 "Admin panel", §6): tabs Users, Projects, Scheduling and Settings, for users
 * with admin:view only (the server refuses every admin call to others; this view only spares them the tabs).
 * Each tab is its own component under ui/admin/.
 */
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { ProjectsTab } from '../admin/ProjectsTab';
import { SchedulingTab } from '../admin/SchedulingTab';
import { SettingsTab } from '../admin/SettingsTab';
import { UsersTab } from '../admin/UsersTab';
import { openAdminPanel } from '../stores/admin';
import { authStore, hasPermission } from '../stores/auth';

const TABS = [
  { name: 'Users', panel: UsersTab },
  { name: 'Projects', panel: ProjectsTab },
  { name: 'Scheduling', panel: SchedulingTab },
  { name: 'Settings', panel: SettingsTab },
] as const;

export function AdminView() {
  const { user } = useSnapshot(authStore);
  const isAdmin = !!user && hasPermission('admin:view');
  useEffect(() => {
    if (isAdmin) void openAdminPanel();
  }, [isAdmin]);
  if (!user) return null;
  return (
    <div className="flex-1 overflow-auto px-8 py-8">
      <div className="mx-auto max-w-6xl space-y-6">
        <div className="flex items-center justify-between">
          <h1 className="text-2xl font-semibold text-ink">Admin panel</h1>
          <Link href="/" className="btn-secondary">
            Back to projects
          </Link>
        </div>
        {!isAdmin ? (
          <p role="alert" className="rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-800">
            You do not have the admin:view permission. Ask an administrator for access.
          </p>
        ) : (
          <TabGroup>
            <TabList className="flex gap-1 border-b border-slate-200">
              {TABS.map((t) => (
                <Tab
                  key={t.name}
                  className="-mb-px border-b-2 border-transparent px-4 py-2 text-sm font-medium text-slate-600 data-hover:text-ink data-selected:border-brand-500 data-selected:text-brand-700"
                >
                  {t.name}
                </Tab>
              ))}
            </TabList>
            <TabPanels className="pt-4">
              {TABS.map((t) => (
                <TabPanel key={t.name}>
                  <t.panel />
                </TabPanel>
              ))}
            </TabPanels>
          </TabGroup>
        )}
      </div>
    </div>
  );
}
