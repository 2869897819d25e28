/**
 * The comments panel's state and actions (viewer.md §2 "Comments panel", §4 "Comments", §8): the threads
 * of the open model, filters and sort, which thread is active, the one open editor (new thread, reply or
 * edit) with its draft, the confirmation dialog, marker placement, and live updates from the project's
 * realtime room. Components read snapshots and call these actions; server calls go through
 * ui/api/comments.ts and engine calls through the viewer's EngineClient.
 */
import { proxy, subscribe } from 'valtio';
import {
  attachmentViewOf,
  EMPTY_ATTACHMENT_VIEW,
  AttachmentType,
  DEFAULT_VERSION_NAME,
  MAX_ATTACHMENT_BYTES,
  ATTACHMENT_TOO_LARGE_MESSAGE,
  type AssigneeCandidate,
  type Attachment,
  type AttachmentInput,
  type AttachmentView,
  type Comment,
  type CommentEvent,
  type CommentState,
  type CommentUser,
  type Point,
  type ProjectRevisionInfo,
} from '../../api/contract';
import type { EngineEvent } from '../../engine/EngineApi';
import {
  addReply,
  addThread,
  changeCommentState,
  getAllComments,
  getCommentChanges,
  getAssigneeCandidates,
  exportBcfFile,
  getAttachmentBlob,
  importBcfFile,
  updateComment,
  uploadAttachment,
  type CommentTarget,
} from '../api/comments';
import { joinProject, leaveProject, onCommentEvent } from '../api/realtime';
import { applyCommentEvent, upsertThread } from '../logic/commentsMerge';
import {
  COMMENT_TOASTS,
  deleteQuestion,
  discardQuestion,
  draftChanged,
  type DraftFields,
} from '../logic/commentsRules';
import { planRestore, pointToMetres, pointToMm, snapshotView } from '../logic/commentsSnapshot';
import { NO_FILTERS, SortOrder, isFilterActive, visibleThreads, type CommentFilters } from '../logic/commentsView';
import { authStore } from './auth';
import { colouringView, restoreColouring } from './colouring';
import { showToast } from './toasts';
import { getEngine, markHidden, viewerStore } from './viewer';

/** An attachment in the editor: kept (fileId), uploaded (fileId), or a snapshot not yet sent (data). */
export interface DraftAttachment {
  /** fileId, or a local key for a snapshot not yet sent. */
  key: string;
  fileId?: string;
  fileName: string;
  fileSize: number;
  type: 1 | 2;
  view?: AttachmentView;
  /** Base64 image of a new snapshot. */
  data?: string;
  /** Object URL of a new snapshot's image (shown in the editor). */
  previewUrl?: string;
}

/** The open editor (viewer.md §4 "Editing": a draft copy; Submit posts it, Cancel asks if changed). */
export interface CommentEditor {
  mode: 'thread' | 'reply' | 'edit';
  /** The thread replied to or holding the edited comment. */
  threadId: string | null;
  /** The edited comment. */
  commentId: string | null;
  /** True when the edited comment is a thread (assignees apply to threads only). */
  isThread: boolean;
  message: string;
  labels: string[];
  assignees: CommentUser[];
  /** Marker location, m. */
  markerLocation: Point | null;
  attachments: DraftAttachment[];
  original: DraftFields;
  submitting: boolean;
  uploading: number;
}

/** A question of the confirmation dialog and what 'Yes' does. */
export type Confirmation =
  | { kind: 'discard'; question: string }
  | { kind: 'delete'; question: string; commentId: string; threadId: string };

export const commentsStore = proxy({
  /** The panel is shown (the toolbar toggle); hidden again when the viewer is left. */
  visible: false,
  loading: false,
  /** The model of the open viewer, its version and revision, and all its revisions. */
  projectName: null as string | null,
  projectVersionName: DEFAULT_VERSION_NAME,
  revision: null as number | null,
  revisions: [] as number[],
  threads: [] as Comment[],
  filters: { ...NO_FILTERS } as CommentFilters,
  sort: SortOrder.OLDEST as SortOrder,
  showMarkers: true,
  /** Expanded threads; the last one opened is the active thread. */
  expanded: [] as string[],
  activeThreadId: null as string | null,
  /** Bumped when a thread is to scroll into view (activated or updated). */
  scrollRequest: { id: null as string | null, seq: 0 },
  editor: null as CommentEditor | null,
  confirm: null as Confirmation | null,
  placingMarker: false,
  assigneeCandidates: [] as AssigneeCandidate[],
  /** Object URLs of loaded attachment thumbnails by fileId ('' = none). */
  thumbnails: {} as Record<string, string>,
  /** Per thread id, the later revision in which one of its referred objects changed or vanished. */
  changedIn: {} as Record<string, number>,
});

const disconnect: Array<() => void> = [];
let localKey = 1;

/** The current user as comments name them. */
function me(): CommentUser {
  const u = authStore.user;
  return { userName: (u?.email ?? '').toLowerCase(), description: u?.name ?? '' };
}

function target(): CommentTarget | null {
  const s = commentsStore;
  if (!s.projectName || s.revision === null) return null;
  return { projectName: s.projectName, projectVersionName: s.projectVersionName, projectRevisionNumber: s.revision };
}

/**
 * Opens the comments of a model when the viewer has its revision: loads the threads and the assignee
 * candidates, joins the project's realtime room and draws the markers. Returns the teardown.
 */
export function openComments(info: ProjectRevisionInfo): () => void {
  closeComments();
  const s = commentsStore;
  s.projectName = info.projectInfo.projectName;
  s.projectVersionName = info.projectInfo.projectVersion || DEFAULT_VERSION_NAME;
  s.revision = info.revision;
  s.revisions = [...info.projectInfo.revisions];
  const token = authStore.token;
  if (token) joinProject(token, s.projectName);
  const name = s.projectName;
  disconnect.push(
    onCommentEvent((e) => applyEvent(e)),
    () => leaveProject(name),
    subscribe(commentsStore, () => scheduleMarkerSync()),
  );
  void getAssigneeCandidates(name)
    .then((list) => {
      if (commentsStore.projectName === name) commentsStore.assigneeCandidates = list;
    })
    .catch(() => {});
  void refreshComments();
  return closeComments;
}

/** Leaving the viewer (viewer.md §2): clears the comments and hides the panel. */
export function closeComments(): void {
  for (const d of disconnect.splice(0)) d();
  lastMarkers = '';
  for (const url of Object.values(commentsStore.thumbnails)) if (url) URL.revokeObjectURL(url);
  const s = commentsStore;
  s.visible = false;
  s.loading = false;
  s.projectName = null;
  s.revision = null;
  s.revisions = [];
  s.threads = [];
  s.filters = { ...NO_FILTERS };
  s.expanded = [];
  s.activeThreadId = null;
  s.editor = null;
  s.confirm = null;
  s.placingMarker = false;
  s.assigneeCandidates = [];
  s.thumbnails = {};
  s.changedIn = {};
}

/** Toolbar toggle of the panel. */
export function toggleCommentsPanel(): void {
  commentsStore.visible = !commentsStore.visible;
}

/** Refresh (and the first load): GET /all. A failure is logged only (viewer.md §8). */
export async function refreshComments(): Promise<void> {
  const s = commentsStore;
  const name = s.projectName;
  if (!name) return;
  s.loading = true;
  try {
    const list = await getAllComments(name, s.projectVersionName);
    if (s.projectName !== name) return;
    s.threads = list.filter((t) => t.state !== 'Deleted');
  } catch (e) {
    console.error('Failed to load comment threads', e);
  } finally {
    if (s.projectName === name) s.loading = false;
  }
  void refreshCommentChanges();
}

/**
 * Loads which threads' referred objects changed since their revision ("changed in rev. N" on the cards).
 * Only threads of earlier revisions can have such changes; a failure is logged only.
 */
async function refreshCommentChanges(): Promise<void> {
  const s = commentsStore;
  const name = s.projectName,
    revision = s.revision;
  if (!name || revision === null || !s.threads.some((t) => t.projectRevisionNumber < revision)) return;
  try {
    const r = await getCommentChanges(name, revision);
    if (s.projectName !== name || s.revision !== revision) return;
    s.changedIn = Object.fromEntries(r.threads.map((t) => [t.threadId, t.changedInRevision]));
  } catch (e) {
    console.error('Failed to load comment changes', e);
  }
}

function applyEvent(e: CommentEvent): void {
  const s = commentsStore;
  if (!s.projectName) return;
  const r = applyCommentEvent(s.threads, e, { projectName: s.projectName, projectVersionName: s.projectVersionName });
  s.threads = r.threads;
  if (r.changedThreadId) requestScroll(r.changedThreadId);
  if (e.kind === 'threadChanged' && e.thread.state === 'Deleted') collapse(e.thread.id);
}

function adopt(thread: Comment): void {
  const r = upsertThread(commentsStore.threads, thread);
  commentsStore.threads = r.threads;
  if (r.changedThreadId) requestScroll(r.changedThreadId);
}

function requestScroll(id: string): void {
  commentsStore.scrollRequest = { id, seq: commentsStore.scrollRequest.seq + 1 };
}

function collapse(id: string): void {
  const s = commentsStore;
  s.expanded = s.expanded.filter((x) => x !== id);
  if (s.activeThreadId === id) s.activeThreadId = s.expanded.at(-1) ?? null;
}

/** Expands or collapses a thread; expanding makes it active and scrolls it into view. */
export function toggleThread(id: string): void {
  const s = commentsStore;
  if (s.expanded.includes(id)) return collapse(id);
  activateThread(id);
}

/** Makes a thread active (expanded, scrolled into view), e.g. when its marker is clicked. */
export function activateThread(id: string): void {
  const s = commentsStore;
  if (!s.expanded.includes(id)) s.expanded = [...s.expanded, id];
  s.activeThreadId = id;
  s.visible = true;
  requestScroll(id);
}

export function setFilters(f: CommentFilters): void {
  commentsStore.filters = { states: [...f.states], revisions: [...f.revisions], labels: [...f.labels] };
}

export function setSort(order: SortOrder): void {
  commentsStore.sort = order;
}

/** The Markers toggle: shows or hides the 3D markers. */
export function toggleMarkers(): void {
  commentsStore.showMarkers = !commentsStore.showMarkers;
  void getEngine()?.api.setCommentMarkersVisible(commentsStore.showMarkers);
}

// ---- the editor ----

function fieldsOf(
  e: Pick<CommentEditor, 'message' | 'labels' | 'assignees' | 'markerLocation' | 'attachments'>,
): DraftFields {
  return {
    message: e.message,
    labels: [...e.labels],
    assignees: e.assignees.map((a) => ({ userName: a.userName })),
    markerLocation: e.markerLocation ? { ...e.markerLocation } : null,
    attachmentKeys: e.attachments.map((a) => a.key),
  };
}

function openEditor(e: Omit<CommentEditor, 'original' | 'submitting' | 'uploading'>): void {
  const s = commentsStore;
  if (s.editor) return;
  s.editor = { ...e, original: fieldsOf(e), submitting: false, uploading: 0 };
}

/** Add Comment: a new-thread editor. */
export function startNewThread(): void {
  openEditor({
    mode: 'thread',
    threadId: null,
    commentId: null,
    isThread: true,
    message: '',
    labels: [],
    assignees: [],
    markerLocation: null,
    attachments: [],
  });
}

/** 'Add a reply' under a thread. */
export function startReply(threadId: string): void {
  openEditor({
    mode: 'reply',
    threadId,
    commentId: null,
    isThread: false,
    message: '',
    labels: [],
    assignees: [],
    markerLocation: null,
    attachments: [],
  });
}

function attachmentToDraft(a: Attachment): DraftAttachment {
  return {
    key: a.fileId,
    fileId: a.fileId,
    fileName: a.fileName,
    fileSize: a.fileSize,
    type: a.type,
    view: a.type === AttachmentType.View ? attachmentViewOf(a) : undefined,
  };
}

/** The pencil: edits a thread or reply as a draft copy. */
export function startEdit(c: Comment): void {
  openEditor({
    mode: 'edit',
    threadId: c.threadId,
    commentId: c.id,
    isThread: c.type === 'Thread',
    message: c.message,
    labels: [...c.labels],
    assignees: c.assignees.map((a) => ({ ...a })),
    markerLocation: c.markerLocation ? { ...c.markerLocation } : null,
    attachments: c.attachments.map(attachmentToDraft),
  });
}

/** Draft field setters (the editor's inputs). */
export function setDraftMessage(text: string): void {
  if (commentsStore.editor) commentsStore.editor.message = text;
}
export function setDraftLabels(labels: string[]): void {
  if (commentsStore.editor) commentsStore.editor.labels = labels;
}
export function setDraftAssignees(list: CommentUser[]): void {
  if (commentsStore.editor) commentsStore.editor.assignees = list;
}
export function removeDraftAttachment(key: string): void {
  const e = commentsStore.editor;
  if (!e) return;
  const gone = e.attachments.find((a) => a.key === key);
  if (gone?.previewUrl) URL.revokeObjectURL(gone.previewUrl);
  e.attachments = e.attachments.filter((a) => a.key !== key);
}

/** Cancel: asks 'Discard comment?' / 'Discard modification?' only when the draft changed. */
export function cancelEditor(): void {
  const e = commentsStore.editor;
  if (!e) return;
  if (draftChanged(fieldsOf(e), e.original)) {
    commentsStore.confirm = { kind: 'discard', question: discardQuestion(e.mode !== 'edit') };
    return;
  }
  closeEditor();
}

function closeEditor(): void {
  const e = commentsStore.editor;
  if (!e) return;
  for (const a of e.attachments) if (a.previewUrl) URL.revokeObjectURL(a.previewUrl);
  if (commentsStore.placingMarker) void getEngine()?.api.cancelCommentMarkerPlacement();
  commentsStore.editor = null;
}

/** The delete button: asks 'Delete this thread?' / 'Delete this reply?'. */
export function askDelete(c: Comment): void {
  commentsStore.confirm = { kind: 'delete', question: deleteQuestion(c.type), commentId: c.id, threadId: c.threadId };
}

/** The confirmation dialog's answer. */
export async function answerConfirm(yes: boolean): Promise<void> {
  const c = commentsStore.confirm;
  commentsStore.confirm = null;
  if (!c || !yes) return;
  if (c.kind === 'discard') return closeEditor();
  // Deleting = an update to state Deleted without a marker (viewer.md §4 "Deleting").
  try {
    const thread = await updateComment({ comment: { id: c.commentId, state: 'Deleted', markerLocation: null } });
    adopt(thread);
    if (c.commentId === c.threadId) collapse(c.threadId);
    if (commentsStore.editor?.commentId === c.commentId) closeEditor();
    showToast('success', COMMENT_TOASTS.changed);
  } catch {
    /* the central handler showed the error */
  }
}

function attachmentInput(a: DraftAttachment): AttachmentInput {
  const view = a.view ?? EMPTY_ATTACHMENT_VIEW;
  return a.fileId
    ? { fileId: a.fileId, type: a.type, ...view }
    : { fileName: a.fileName, data: a.data, type: a.type, ...view };
}

/** Submit: posts the thread or reply, or saves the edit; toasts the spec's text (5 s). */
export async function submitEditor(): Promise<void> {
  const s = commentsStore;
  const e = s.editor;
  const t = target();
  if (!e || !t || e.submitting || !e.message.trim()) return;
  e.submitting = true;
  const attachments = e.attachments.map(attachmentInput);
  try {
    if (e.mode === 'edit' && e.commentId) {
      const thread = await updateComment({
        comment: {
          id: e.commentId,
          message: e.message,
          labels: [...e.labels],
          ...(e.isThread ? { assignees: e.assignees.map((a) => ({ ...a })) } : {}),
          markerLocation: e.markerLocation,
          attachments,
        },
        user: me(),
      });
      adopt(thread);
      showToast('success', COMMENT_TOASTS.changed);
    } else {
      const body = {
        comment: {
          message: e.message,
          labels: [...e.labels],
          assignees: e.mode === 'thread' ? e.assignees.map((a) => ({ ...a })) : [],
          markerLocation: e.markerLocation,
          attachments,
        },
        user: me(),
      };
      if (e.mode === 'reply' && e.threadId) {
        adopt(await addReply(t, e.threadId, body));
        showToast('success', COMMENT_TOASTS.replyPosted);
      } else {
        const thread = await addThread(t, body);
        adopt(thread);
        activateThread(thread.id);
        showToast('success', COMMENT_TOASTS.threadPosted);
      }
    }
    closeEditor();
  } catch {
    if (s.editor) s.editor.submitting = false;
  }
}

/** The state menu: POST /change-state at once (viewer.md §4). */
export async function changeState(threadId: string, state: CommentState): Promise<void> {
  try {
    adopt(await changeCommentState(threadId, state));
    showToast('success', COMMENT_TOASTS.stateChanged);
  } catch {
    /* the central handler showed the error */
  }
}

// ---- attachments: snapshot and file ----

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');

/**
 * Attach snapshot: the canvas image and the view (camera, visible and selected objects, clipping box) as
 * a VIEW attachment of the draft. 'Failed to get web viewer' without a viewer (viewer.md §8).
 */
export async function attachSnapshot(): Promise<void> {
  const engine = getEngine();
  const e = commentsStore.editor;
  if (!e) return;
  if (!engine || !viewerStore.objects) {
    showToast('error', 'Failed to get web viewer');
    return;
  }
  e.uploading++;
  try {
    const [view, clip, image] = await Promise.all([
      engine.api.getView(),
      engine.api.getClipBox(),
      engine.api.captureImage('image/png'),
    ]);
    const objects = viewerStore.objects;
    const tree = viewerStore.tree;
    const attachmentView = snapshotView({
      view,
      walking: viewerStore.walkMode,
      ids: objects.map((o) => o.id),
      isHidden: (n) => tree?.isHidden(n) ?? false,
      hiddenCount: tree?.hiddenObjects ?? 0,
      selectedNodes: viewerStore.selection.map((i) => i.nodeId),
      clip: clip.active ? { box: clip.box, active: true } : null,
      coloring: colouringView(),
    });
    const blob = new Blob([image.bytes as BlobPart], { type: image.type });
    const ext = image.type === 'image/jpeg' ? 'jpg' : 'png';
    const cur = commentsStore.editor;
    if (!cur) return;
    cur.attachments = [
      ...cur.attachments,
      {
        key: `local-${localKey++}`,
        fileName: `snapshot-${stamp()}.${ext}`,
        fileSize: image.bytes.byteLength,
        type: AttachmentType.View,
        view: attachmentView,
        data: base64(image.bytes),
        previewUrl: URL.createObjectURL(blob),
      },
    ];
  } catch (err) {
    showToast('error', (err as Error).message || 'Failed to get web viewer');
  } finally {
    if (commentsStore.editor) commentsStore.editor.uploading = Math.max(0, commentsStore.editor.uploading - 1);
  }
}

/** Upload file: refuses files over 250 MB with the spec's text, else uploads and attaches it (type FILE). */
export async function attachFile(file: File): Promise<void> {
  const s = commentsStore;
  if (!s.editor || !s.projectName) return;
  if (file.size > MAX_ATTACHMENT_BYTES) {
    showToast('error', ATTACHMENT_TOO_LARGE_MESSAGE);
    return;
  }
  s.editor.uploading++;
  try {
    const a = await uploadAttachment(s.projectName, file, file.name);
    if (s.editor) s.editor.attachments = [...s.editor.attachments, attachmentToDraft(a)];
  } catch {
    /* the central handler showed the error */
  } finally {
    if (s.editor) s.editor.uploading = Math.max(0, s.editor.uploading - 1);
  }
}

/**
 * Clicking a snapshot: restores its camera, visible and selected objects, clipping box and colouring in the viewer.
 * Objects the model does not have are reported in an info toast.
 */
export async function restoreSnapshot(view: AttachmentView): Promise<void> {
  const engine = getEngine();
  const objects = viewerStore.objects;
  if (!engine || !objects) {
    showToast('error', 'Failed to get web viewer');
    return;
  }
  const plan = planRestore(
    view,
    objects.map((o) => o.id),
  );
  const all = objects.map((_, i) => i);
  await engine.api.setVisibility(all, true);
  markHidden(all, false);
  if (plan.hidden.length) {
    await engine.api.setVisibility(plan.hidden, false);
    markHidden(plan.hidden, true);
  }
  // Colouring first: a change of colouring clears the selection (application.md §4).
  await restoreColouring(plan.coloring);
  await engine.api.setSelection(plan.selected);
  if (plan.clip) {
    await engine.api.setClipBox(plan.clip.box);
    await engine.api.setClipping(plan.clip.active);
  } else await engine.api.setClipping(false);
  if (plan.view) await engine.api.setView(plan.view);
  if (plan.missing.length)
    showToast('info', `${plan.missing.length} object(s) of the snapshot are not in this revision`);
}

/** Opens a file attachment (downloads it). */
export async function openAttachmentFile(a: { fileId: string; fileName: string }): Promise<void> {
  try {
    download(await getAttachmentBlob(a.fileId, false), a.fileName);
  } catch {
    /* the central handler showed the error */
  }
}

function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Export BCF: the threads the panel shows while a filter is active, else all of them, as a BCF 3.0 (or
 * 2.1) package downloaded as '{project}.bcf'.
 */
export async function exportBcf(version: '3.0' | '2.1' = '3.0'): Promise<void> {
  const s = commentsStore;
  if (!s.projectName) return;
  const ids = isFilterActive(s.filters) ? visibleThreads(s.threads, s.filters, s.sort).map((t) => t.id) : null;
  try {
    download(await exportBcfFile(s.projectName, s.projectVersionName, version, ids), `${s.projectName}.bcf`);
  } catch {
    /* the central handler showed the error */
  }
}

/**
 * Import BCF: a BCF 2.1 or 3.0 file becomes threads on the current revision; a toast says how many topics
 * came in and how many components matched no object of the model.
 */
export async function importBcf(file: File): Promise<void> {
  const t = target();
  if (!t) return;
  commentsStore.loading = true;
  try {
    const r = await importBcfFile(t, file, file.name);
    showToast('success', `Imported ${r.topics} topic(s) from BCF ${r.version}`);
    if (r.unmatchedComponents.length)
      showToast('warning', `${r.unmatchedComponents.length} component(s) of the BCF file are not in this model`);
    await refreshComments();
  } catch {
    /* the central handler showed the error */
  } finally {
    commentsStore.loading = false;
  }
}

/** Loads a thumbnail once (object URL in `thumbnails`; '' when none). */
export async function loadThumbnail(fileId: string): Promise<void> {
  const s = commentsStore;
  if (fileId in s.thumbnails) return;
  s.thumbnails[fileId] = '';
  try {
    const blob = await getAttachmentBlob(fileId, true, true);
    if (fileId in commentsStore.thumbnails) commentsStore.thumbnails[fileId] = URL.createObjectURL(blob);
  } catch {
    /* no thumbnail: the card shows the file icon */
  }
}

// ---- 3D markers ----

/** Add 3D marker: arms placement in the engine (the panel is disabled meanwhile). */
export function startMarkerPlacement(): void {
  const engine = getEngine();
  if (!commentsStore.editor) return;
  if (!engine) {
    showToast('error', 'Failed to get web viewer');
    return;
  }
  commentsStore.placingMarker = true;
  void engine.api.startCommentMarkerPlacement();
}

/** Remove 3D marker from the draft. */
export function removeDraftMarker(): void {
  if (commentsStore.editor) commentsStore.editor.markerLocation = null;
}

/** Engine events for comments: a placed (or cancelled) marker, a clicked marker. */
export function handleCommentsEngineEvent(e: EngineEvent): void {
  if (e.type === 'comment-marker-placed') {
    commentsStore.placingMarker = false;
    if (e.point && commentsStore.editor) commentsStore.editor.markerLocation = pointToMetres(e.point);
  } else if (e.type === 'comment-marker-clicked' && e.id !== DRAFT_MARKER_ID) activateThread(e.id);
}

/** Id of the draft's marker (a new thread or reply). */
const DRAFT_MARKER_ID = '__draft__';
let syncQueued = false;
let lastMarkers = '';

/** Markers drawn: each thread's (the edited one at its draft position), the new thread's draft marker. */
function scheduleMarkerSync(): void {
  if (syncQueued) return;
  syncQueued = true;
  queueMicrotask(() => {
    syncQueued = false;
    const s = commentsStore;
    const engine = getEngine();
    if (!engine) return;
    const e = s.editor;
    const markers = s.threads
      .filter((t) => t.state !== 'Deleted')
      .map((t) => ({
        id: t.id,
        at: e?.mode === 'edit' && e.commentId === t.id ? e.markerLocation : t.markerLocation,
      }))
      .filter((m): m is { id: string; at: Point } => m.at !== null)
      .map((m) => ({ id: m.id, point: pointToMm(m.at), active: m.id === s.activeThreadId }));
    if (e && e.mode !== 'edit' && e.markerLocation)
      markers.push({ id: DRAFT_MARKER_ID, point: pointToMm(e.markerLocation), active: true });
    const key = JSON.stringify(markers);
    if (key === lastMarkers) return;
    lastMarkers = key;
    void engine.api.setCommentMarkers(markers);
  });
}
