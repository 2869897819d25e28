/**
 * Reads a BCF-XML package, 2.1 or 3.0 (both placements of comments and viewpoints: 2.1 keeps them beside
 * the Topic, 3.0 inside it), into threads to store. Topic → thread (message = Description, or Title and
 * Description when the Description does not begin with the Title; state from TopicStatus; labels;
 * AssignedTo); Comment → reply ('State changed from …' texts → StateChangeMessage); viewpoint → VIEW
 * attachment (the snapshot image, or the .bcfv itself when there is none) restoring camera, selection,
 * visibility and clipping. Components matching no object of the revision are listed in the report.
 */
import { unzipSync } from 'fflate';
import {
  type AttachmentView,
  COMMENT_STATE_LABELS,
  COMMENT_STATES,
  type CommentState,
  type CommentType,
  FILE_NAME_MAX_LENGTH,
  LABEL_MAX_LENGTH,
  MAX_ASSIGNEES,
  MAX_ATTACHMENTS,
  MAX_LABELS,
  MESSAGE_MAX_LENGTH,
} from '../../contract/comments';
import { EMPTY_VIEW } from '../AttachmentStore';
import { type ObjectIndex, visInfoToView } from './viewpoint';
import { attr, child, children, parseXml, textOf, type XmlNode } from './xml';

/** Most bytes a BCF package may unpack to (its snapshots and viewpoints). */
export const BCF_MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** Most topics read from one package. */
export const BCF_MAX_TOPICS = 5000;

/** An attachment read from a package. */
export interface ImportedAttachment {
  fileName: string;
  bytes: Uint8Array;
  view: AttachmentView;
}

/** A comment read from a package (thread or reply). */
export interface ImportedComment {
  type: CommentType;
  author: string;
  timeStamp: string;
  lastModificationTime: string;
  hasModifications: boolean;
  message: string;
  state: CommentState;
  labels: string[];
  assignees: string[];
  attachments: ImportedAttachment[];
}

/** A thread read from a package. */
export interface ImportedThread extends ImportedComment {
  replies: ImportedComment[];
}

/** What a package held, and what could not be carried. */
export interface ImportedPackage {
  version: string;
  threads: ImportedThread[];
  unmatchedComponents: string[];
  warnings: string[];
}

/** A malformed package (400 for the caller). */
export class BcfError extends Error {}

const STATE_ALIASES: Record<string, CommentState> = {
  new: 'New',
  open: 'New',
  active: 'New',
  reopened: 'New',
  inprogress: 'InProgress',
  in_progress: 'InProgress',
  'in progress': 'InProgress',
  assigned: 'InProgress',
  resolved: 'Resolved',
  solved: 'Resolved',
  fixed: 'Resolved',
  done: 'Resolved',
  closed: 'Closed',
  undetermined: 'Undetermined',
};

/** A Keelson state for a TopicStatus (unknown ones are 'New', with a warning). */
function stateOf(status: string | undefined, warnings: string[]): CommentState {
  if (!status) return 'New';
  const exact = COMMENT_STATES.find((s) => s === status);
  if (exact && exact !== 'Deleted') return exact;
  const alias = STATE_ALIASES[status.trim().toLowerCase()];
  if (alias) return alias;
  warnings.push(`Topic status "${status}" is not a Keelson state; the thread starts as New`);
  return 'New';
}

/** ISO time of a BCF dateTime, or `fallback` when missing or unreadable. */
function timeOf(s: string | undefined, fallback: string): string {
  const t = s ? Date.parse(s) : NaN;
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}

const clip = (s: string) => s.slice(0, MESSAGE_MAX_LENGTH);

/** Longest user name (e-mail) a comment may carry: CommentUserSchema's bound. */
const USER_NAME_MAX_LENGTH = 254;

/** An author's user name, lower case; 'unknown' when missing or longer than a user name may be. */
function userOf(s: string | undefined, warnings: string[]): string {
  const u = s?.trim().toLowerCase() || 'unknown';
  if (u.length <= USER_NAME_MAX_LENGTH) return u;
  warnings.push(`An author name of ${u.length} characters was read as unknown`);
  return 'unknown';
}

/** An attachment's file name from a package path: its last part, at most FILE_NAME_MAX_LENGTH characters. */
function fileNameOf(p: string): string {
  const base = p.split(/[/\\]/).pop() || 'viewpoint';
  return base.slice(-FILE_NAME_MAX_LENGTH);
}

/** The thread message of a Title and a Description (lossless for what exportBcf writes). */
function messageOf(title: string | undefined, description: string | undefined): string {
  const t = title?.trim() ?? '';
  const d = description?.trim() ?? '';
  if (!d) return clip(t || '(no title)');
  if (!t || d.startsWith(t)) return clip(d);
  return clip(`${t}\n\n${d}`);
}

const STATE_CHANGE_RE = new RegExp(
  `^State changed from (${Object.values(COMMENT_STATE_LABELS).join('|')}) to (${Object.values(COMMENT_STATE_LABELS).join('|')})$`,
);

/**
 * Reads a package. `users` names the authors Keelson knows (e-mail → full name is the caller's).
 * @throws BcfError for a file that is no zip, has no topic, or unpacks too large.
 */
export function importBcf(bytes: Uint8Array, index: ObjectIndex): ImportedPackage {
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        total += f.originalSize;
        if (total > BCF_MAX_UNPACKED_BYTES) throw new BcfError('The BCF file unpacks to more than 1 GB');
        return !f.name.endsWith('/');
      },
    });
  } catch (e) {
    if (e instanceof BcfError) throw e;
    throw new BcfError('The file is not a BCF package (a zip archive)');
  }
  const text = (name: string) => (files[name] ? new TextDecoder().decode(files[name]) : undefined);
  const warnings: string[] = [];
  const unmatched = new Set<string>();
  const versionDoc = text('bcf.version');
  let version = '';
  try {
    version = versionDoc ? (attr(child(parseXml(versionDoc), 'Version'), 'VersionId') ?? '') : '';
  } catch {
    warnings.push('bcf.version is not readable XML and was ignored');
  }
  if (version && !version.startsWith('2.') && !version.startsWith('3.'))
    warnings.push(`BCF version ${version} is read as 3.0`);
  const markups = Object.keys(files).filter((n) => /^[^/]+\/markup\.bcf$/i.test(n));
  if (markups.length === 0) throw new BcfError('The BCF file holds no topic (no markup.bcf)');
  if (markups.length > BCF_MAX_TOPICS) throw new BcfError(`The BCF file holds more than ${BCF_MAX_TOPICS} topics`);
  const now = new Date().toISOString();
  const threads: ImportedThread[] = [];
  for (const name of markups.sort()) {
    const dir = name.slice(0, name.indexOf('/') + 1);
    let markup: XmlNode;
    try {
      markup = child(parseXml(text(name) ?? ''), 'Markup') ?? {};
    } catch {
      warnings.push(`${name} is not readable XML and was skipped`);
      continue;
    }
    const topic = child(markup, 'Topic');
    if (!topic) {
      warnings.push(`${name} has no Topic and was skipped`);
      continue;
    }
    // 3.0: Topic/Comments/Comment and Topic/Viewpoints/ViewPoint; 2.1: Markup/Comment and Markup/Viewpoints.
    const comments = [...children(child(topic, 'Comments'), 'Comment'), ...children(markup, 'Comment')];
    const viewpoints = [...children(child(topic, 'Viewpoints'), 'ViewPoint'), ...children(markup, 'Viewpoints')];
    const attachments = new Map<string, ImportedAttachment>();
    for (const vp of viewpoints) {
      const guid = attr(vp, 'Guid') ?? `viewpoint-${attachments.size}`;
      const vFile = textOf((vp as XmlNode).Viewpoint);
      const sFile = textOf((vp as XmlNode).Snapshot);
      let view: AttachmentView = { ...EMPTY_VIEW };
      const vText = vFile ? text(dir + vFile) : undefined;
      if (vText) {
        try {
          const r = visInfoToView(parseXml(vText), index);
          view = r.view;
          for (const u of r.unmatched) unmatched.add(u);
          warnings.push(...r.warnings.map((w) => `${name}: ${w}`));
        } catch {
          warnings.push(`${dir}${vFile} is not readable XML; the viewpoint keeps only its snapshot`);
        }
      } else if (vFile) warnings.push(`${dir}${vFile} is missing from the package`);
      const snap = sFile ? files[dir + sFile] : undefined;
      if (sFile && !snap) warnings.push(`${dir}${sFile} is missing from the package`);
      if (!snap && !vText) continue;
      attachments.set(guid, {
        fileName: fileNameOf(snap ? (sFile ?? 'snapshot.png') : (vFile ?? 'viewpoint.bcfv')),
        bytes: snap ?? new TextEncoder().encode(vText),
        view,
      });
    }
    const used = new Set<string>();
    const replies: ImportedComment[] = comments.map((c) => {
      const vpGuid = attr(child(c, 'Viewpoint'), 'Guid');
      const att = vpGuid ? attachments.get(vpGuid) : undefined;
      if (vpGuid && att) used.add(vpGuid);
      const message = textOf((c as XmlNode).Comment)?.trim() || (att ? '(viewpoint)' : '(no text)');
      const date = timeOf(textOf((c as XmlNode).Date), now);
      const modified = textOf((c as XmlNode).ModifiedDate);
      // A state change message carries the state it changed to.
      const change = STATE_CHANGE_RE.exec(message);
      const to = change ? COMMENT_STATES.find((k) => COMMENT_STATE_LABELS[k] === change[2]) : undefined;
      return {
        type: change ? 'StateChangeMessage' : 'Reply',
        author: userOf(textOf((c as XmlNode).Author), warnings),
        timeStamp: date,
        lastModificationTime: timeOf(modified, date),
        hasModifications: modified !== undefined,
        message: clip(message),
        state: to ?? 'New',
        labels: [],
        assignees: [],
        attachments: att ? [att] : [],
      };
    });
    // 3.0 wraps Label elements in one Labels; 2.1 repeats Labels with the text.
    const labelNodes = children(topic, 'Labels').flatMap((l) =>
      l && typeof l === 'object' && 'Label' in l ? children(l, 'Label') : [l],
    );
    const labels = labelNodes
      .map((l) => textOf(l)?.trim() ?? '')
      .filter((l) => l !== '')
      .map((l) => l.slice(0, LABEL_MAX_LENGTH));
    const created = timeOf(textOf(topic.CreationDate), now);
    const assigned = children(topic, 'AssignedTo')
      .map((a) => textOf(a)?.trim().toLowerCase() ?? '')
      .filter((a) => a !== '')
      .filter((a) => {
        if (a.length <= USER_NAME_MAX_LENGTH) return true;
        warnings.push(`${name}: an assignee name of ${a.length} characters was left out`);
        return false;
      });
    const assignees = [...new Set(assigned)];
    if (assignees.length > MAX_ASSIGNEES)
      warnings.push(`${name}: ${assignees.length} assignees; the first ${MAX_ASSIGNEES} are kept`);
    const own = [...attachments.entries()].filter(([g]) => !used.has(g)).map(([, a]) => a);
    if (own.length > MAX_ATTACHMENTS)
      warnings.push(`${name}: ${own.length} viewpoints on the topic; the first ${MAX_ATTACHMENTS} are kept`);
    threads.push({
      type: 'Thread',
      author: userOf(textOf(topic.CreationAuthor), warnings),
      timeStamp: created,
      lastModificationTime: timeOf(textOf(topic.ModifiedDate), created),
      hasModifications: false,
      message: messageOf(textOf(topic.Title), textOf(topic.Description)),
      state: stateOf(attr(topic, 'TopicStatus'), warnings),
      labels: [...new Set(labels)].slice(0, MAX_LABELS),
      assignees: assignees.slice(0, MAX_ASSIGNEES),
      attachments: own.slice(0, MAX_ATTACHMENTS),
      replies,
    });
  }
  return { version: version || '2.1', threads, unmatchedComponents: [...unmatched], warnings: [...new Set(warnings)] };
}
