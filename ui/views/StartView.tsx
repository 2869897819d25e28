/**
 * Start view (application.md §2 "Start view"): vertical tabs Recent and Browse with project cards, the
 * 'Add project' button for upload:model, converting cards that survive a reload and other users'
 * conversions as they start ('projectsChanged'), deleting revisions and projects for admin:view (with
 * confirmation), the 'What's new' list with the licence banner and the once-a-day licence notice. On entry
 * the current model data is reset.
 */
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import type { Model } from '../../api/contract';
import { onProjectsChanged } from '../api/realtime';
import { CadUploadDialog } from '../components/CadUploadDialog';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { type AddLocationRequest, AddProjectDialog, type AddProjectRequest } from '../components/AddProjectDialog';
import { ProjectCard } from '../components/ProjectCard';
import { WhatsNew } from '../components/WhatsNew';
import { addRecent, readRecent } from '../logic/recent';
import { authStore, hasPermission } from '../stores/auth';
import { resetCurrentProject } from '../stores/currentProject';
import { checkLicense } from '../stores/license';
import {
  addProject,
  addProjectFromLocation,
  cancelConversion,
  deleteProject,
  deleteRevision,
  hasActiveConversions,
  loadModels,
  projectsStore,
  removeFailedProject,
} from '../stores/projects';

/** Model list refresh while a conversion runs (a safety net next to the socket events), ms. */
const CONVERSION_POLL_MS = 4000;

/** What a delete icon asks to confirm: a project, or one revision of it. */
type DeleteRequest = { project: string; revision: number | null };

function Cards({
  names,
  models,
  empty,
  onDelete,
}: {
  names: string[];
  models: ReadonlyMap<string, Model>;
  empty: string;
  onDelete: (r: DeleteRequest) => void;
}) {
  const snap = useSnapshot(projectsStore);
  const { user } = useSnapshot(authStore);
  const [, navigate] = useLocation();
  if (!snap.loaded && snap.loading) return <p className="text-sm text-slate-500">Loading projects…</p>;
  if (names.length === 0) return <p className="text-sm text-slate-500">{empty}</p>;
  return (
    <div className="flex flex-wrap gap-4">
      {names.map((name) => (
        <ProjectCard
          key={name}
          name={name}
          model={models.get(name) ?? null}
          conversion={(snap.conversions[name] as never) ?? null}
          currentUserEmail={user?.email ?? ''}
          onOpen={(n) => {
            addRecent(localStorage, n);
            navigate(`/${encodeURIComponent(n)}`);
          }}
          onCancel={(n) => void cancelConversion(n).catch(() => {})}
          onRemove={(n) => void removeFailedProject(n)}
          canDelete={hasPermission('admin:view')}
          onDeleteProject={(project) => onDelete({ project, revision: null })}
          onDeleteRevision={(project, revision) => onDelete({ project, revision })}
        />
      ))}
    </div>
  );
}

export function StartView() {
  const snap = useSnapshot(projectsStore);
  const [dialogOpen, setDialogOpen] = useState(false);
  /** 0 = Recent, 1 = Browse; an upload switches to Browse, where its converting card appears. */
  const [tab, setTab] = useState(0);
  const [recent, setRecent] = useState<string[]>(() => readRecent(localStorage));
  const [deleting, setDeleting] = useState<DeleteRequest | null>(null);
  const [withComments, setWithComments] = useState(true);
  // user is read so the view follows permission changes (hasPermission reads the store itself).
  const { token, user: _user } = useSnapshot(authStore);

  useEffect(() => {
    resetCurrentProject();
    void loadModels();
    void checkLicense();
    setRecent(readRecent(localStorage));
    const t = setInterval(() => hasActiveConversions() && void loadModels(), CONVERSION_POLL_MS);
    return () => clearInterval(t);
  }, []);

  // Other users' conversions: the list (and with it the converting card and its room) follows at once.
  useEffect(() => (token ? onProjectsChanged(token, () => void loadModels()) : undefined), [token]);

  function confirmDelete() {
    const d = deleting;
    setDeleting(null);
    if (!d) return;
    const done = d.revision === null ? deleteProject(d.project) : deleteRevision(d.project, d.revision, withComments);
    done
      .then(() => setRecent(readRecent(localStorage)))
      .catch(() => {
        /* the central handler has shown the error */
      });
  }

  const models = useMemo(() => new Map(snap.models.map((m) => [m.name, m as Model])), [snap.models]);
  // Browse: every listed model plus uploads the list does not show yet.
  const browse = useMemo(() => {
    const names = snap.models.map((m) => m.name);
    for (const n of Object.keys(snap.conversions)) if (!models.has(n)) names.push(n);
    return names.sort((a, b) => a.localeCompare(b));
  }, [snap.models, snap.conversions, models]);
  const recentNames = useMemo(
    () => [...recent].reverse().filter((n) => models.has(n) || n in snap.conversions),
    [recent, models, snap.conversions],
  );

  function submit(r: AddProjectRequest) {
    setTab(1);
    addProject(r).catch(() => {
      /* the central handler has shown the error */
    });
  }

  function submitLocation(r: AddLocationRequest) {
    setTab(1);
    addProjectFromLocation(r.source, r).catch(() => {
      /* addProjectFromLocation has shown the error */
    });
  }

  const tabCls =
    'w-full rounded-md px-3 py-2 text-left text-sm font-medium text-slate-600 outline-none data-hover:bg-slate-200/60 data-selected:bg-white data-selected:text-brand-700 data-selected:shadow-sm';
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-auto">
      <div className="mx-auto flex w-full max-w-6xl items-center justify-between px-8 pt-8 pb-4">
        <h1 className="text-2xl font-semibold text-ink">Projects</h1>
        {hasPermission('upload:model') && (
          <button type="button" className="btn-primary" onClick={() => setDialogOpen(true)}>
            Add project
          </button>
        )}
      </div>
      <TabGroup
        vertical
        selectedIndex={tab}
        onChange={setTab}
        className="mx-auto flex w-full max-w-6xl gap-6 px-8 pb-8"
      >
        <TabList className="flex w-40 shrink-0 flex-col gap-1">
          <Tab className={tabCls}>Recent</Tab>
          <Tab className={tabCls}>Browse</Tab>
        </TabList>
        <TabPanels className="min-w-0 flex-1">
          <TabPanel>
            <Cards names={recentNames} models={models} empty="No recent models" onDelete={setDeleting} />
          </TabPanel>
          <TabPanel>
            <Cards names={browse} models={models} empty="No models to display" onDelete={setDeleting} />
          </TabPanel>
        </TabPanels>
        <WhatsNew />
      </TabGroup>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting?.revision == null ? 'Delete project' : 'Delete revision'}
        text={
          deleting?.revision == null
            ? `Delete the project ${deleting?.project ?? ''} with all its revisions and comments? This cannot be undone.`
            : `Delete revision ${deleting.revision} of the project ${deleting.project}? This cannot be undone.`
        }
        confirmLabel="Delete"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      >
        {deleting?.revision != null && (
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={withComments} onChange={(e) => setWithComments(e.target.checked)} />
            Also delete the comments of this revision
          </label>
        )}
      </ConfirmDialog>
      <CadUploadDialog />
      <AddProjectDialog
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        onSubmit={submit}
        onSubmitLocation={submitLocation}
      />
    </div>
  );
}
