/**
 * The realtime channel of application.md §7 ("/api/socket.io (no transport upgrade)"): one socket.io
 * connection with the bearer token; 'join' a room keyed by a conversion id to receive its 'progress'
 * events (§4 "Model conversion"), and the room keyed by the user's e-mail for 'userNotification' (§4
 * "Authentication and session").
 */
import { io, type Socket } from 'socket.io-client';
import * as v from 'valibot';
import {
  CAD_FILES_EVENT,
  type CadUploadEvent,
  CadUploadEventSchema,
  COMMENT_EVENT,
  CommentEventSchema,
  PROJECTS_CHANGED_EVENT,
  ProgressEventSchema,
  ProjectsChangedEventSchema,
  type ProjectsChangedEvent,
  TAGS_EVENT,
  TagsEventSchema,
  type TagsEvent,
  type CommentEvent,
  type ProgressEvent,
  UserNotificationSchema,
  type UserNotification,
} from '../../api/contract';

let socket: Socket | null = null;
let socketToken: string | null = null;
const joined = new Set<string>();
const listeners = new Set<(e: ProgressEvent) => void>();
const commentListeners = new Set<(e: CommentEvent) => void>();
const noticeListeners = new Set<(n: UserNotification) => void>();
const projectListeners = new Set<(e: ProjectsChangedEvent) => void>();
const tagsListeners = new Set<(e: TagsEvent) => void>();
const cadListeners = new Set<(e: CadUploadEvent) => void>();

function connect(token: string): Socket {
  if (socket && socketToken === token) return socket;
  socket?.disconnect();
  socketToken = token;
  socket = io({ path: '/api/socket.io', transports: ['websocket'], auth: { token } });
  // Rooms are lost on reconnect; join them again.
  socket.on('connect', () => joined.forEach((id) => socket?.emit('join', id)));
  // A stopping server closes the socket itself, which ends socket.io's own reconnection: keep trying, so
  // progress resumes when the server is back (a refused token then ends it with connect_error).
  socket.on('disconnect', (reason) => {
    if (reason === 'io server disconnect') socket?.connect();
  });
  socket.on('progress', (raw: unknown) => {
    const r = v.safeParse(ProgressEventSchema, raw);
    if (!r.success) return;
    listeners.forEach((l) => l(r.output));
  });
  socket.on(COMMENT_EVENT, (raw: unknown) => {
    const r = v.safeParse(CommentEventSchema, raw);
    if (r.success) commentListeners.forEach((l) => l(r.output));
  });
  socket.on(PROJECTS_CHANGED_EVENT, (raw: unknown) => {
    const r = v.safeParse(ProjectsChangedEventSchema, raw);
    if (r.success) projectListeners.forEach((l) => l(r.output));
  });
  socket.on(TAGS_EVENT, (raw: unknown) => {
    const r = v.safeParse(TagsEventSchema, raw);
    if (r.success) tagsListeners.forEach((l) => l(r.output));
  });
  socket.on(CAD_FILES_EVENT, (raw: unknown) => {
    const r = v.safeParse(CadUploadEventSchema, raw);
    if (r.success) cadListeners.forEach((l) => l(r.output));
  });
  socket.on('userNotification', (raw: unknown) => {
    const r = v.safeParse(UserNotificationSchema, raw);
    if (!r.success) return;
    noticeListeners.forEach((l) => l(r.output));
  });
  return socket;
}

/** Joins the room of a conversion (idempotent). */
export function joinConversion(token: string, conversionId: string): void {
  const s = connect(token);
  if (joined.has(conversionId)) return;
  joined.add(conversionId);
  if (s.connected) s.emit('join', conversionId);
}

/** Holders of each project room: the comments panel and the custom trees each hold one. */
const projectHolds = new Map<string, number>();

/**
 * Joins a project's room `project:{NAME}` (comment and custom tree changes, viewer.md §2); each join is
 * matched by one leaveProject, and the room is left when the last holder leaves.
 */
export function joinProject(token: string, projectName: string): void {
  const room = `project:${projectName.toUpperCase()}`;
  projectHolds.set(room, (projectHolds.get(room) ?? 0) + 1);
  joinConversion(token, room);
}

/** Gives up one hold of a project's room; leaves it when nobody holds it any more. */
export function leaveProject(projectName: string): void {
  const room = `project:${projectName.toUpperCase()}`;
  const left = (projectHolds.get(room) ?? 1) - 1;
  if (left > 0) {
    projectHolds.set(room, left);
    return;
  }
  projectHolds.delete(room);
  leaveConversion(room);
}

/** Subscribes to comment changes of the joined projects; returns the unsubscribe function. */
export function onCommentEvent(listener: (e: CommentEvent) => void): () => void {
  commentListeners.add(listener);
  return () => commentListeners.delete(listener);
}

/** Subscribes to custom tree changes of the joined projects; returns the unsubscribe function. */
export function onTagsEvent(listener: (e: TagsEvent) => void): () => void {
  tagsListeners.add(listener);
  return () => tagsListeners.delete(listener);
}

/** Subscribes to 'cadfiles' events of the joined conversions (application.md §4); returns the unsubscribe. */
export function onCadFilesEvent(listener: (e: CadUploadEvent) => void): () => void {
  cadListeners.add(listener);
  return () => cadListeners.delete(listener);
}

/** Leaves the room of a finished conversion. */
export function leaveConversion(conversionId: string): void {
  if (!joined.delete(conversionId)) return;
  socket?.emit('leave', conversionId);
}

/** Subscribes to progress events; returns the unsubscribe function. */
export function onProgress(listener: (e: ProgressEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Joins the room keyed by the signed-in user's e-mail, where the server sends 'userNotification'
 * (application.md §4). Idempotent; a new token reconnects and joins again.
 */
export function joinUserRoom(token: string, email: string): void {
  const s = connect(token);
  const room = email.toLowerCase();
  if (joined.has(room)) return;
  joined.add(room);
  if (s.connected) s.emit('join', room);
}

/** Subscribes to user notifications; returns the unsubscribe function. */
export function onUserNotification(listener: (n: UserNotification) => void): () => void {
  noticeListeners.add(listener);
  return () => noticeListeners.delete(listener);
}

/**
 * Subscribes to 'projectsChanged' (a conversion of a visible project started or ended, by anyone); connects
 * with `token` (every socket receives it, no room to join). Returns the unsubscribe function.
 */
export function onProjectsChanged(token: string, listener: (e: ProjectsChangedEvent) => void): () => void {
  connect(token);
  projectListeners.add(listener);
  return () => projectListeners.delete(listener);
}

/** Leaves the user's room and closes the connection (logout, application.md §4). */
export function disconnectRealtime(email: string | null): void {
  if (!socket) return;
  if (email) socket.emit('leave', email);
  socket.disconnect();
  socket = null;
  socketToken = null;
  joined.clear();
  projectHolds.clear();
}
