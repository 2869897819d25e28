/**
 * Who may do what with a comment, and when the editor may submit (viewer.md §4 "Comments", §5, §6). The
 * server enforces the same rules; the panel uses these to enable buttons and menus.
 */

/** The signed-in user as the rules need them: e-mail and whether they hold 'admin:view'. */
export interface RuleUser {
  email: string;
  adminView: boolean;
}

/** What the rules read of a comment. */
export interface RuleComment {
  type: string;
  author: { userName: string };
  assignees: readonly { userName: string }[];
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Editing (the pencil, never on state-change messages): the author (e-mail, case-insensitive) or 'admin:view'. */
export function mayEdit(c: RuleComment, u: RuleUser | null): boolean {
  if (!u || c.type === 'StateChangeMessage') return false;
  return u.adminView || same(c.author.userName, u.email);
}

/** Changing the state: the author, an assignee or 'admin:view' — and only while the comment is active (§6). */
export function mayChangeState(c: RuleComment, u: RuleUser | null, active: boolean): boolean {
  if (!u || !active || c.type !== 'Thread') return false;
  return u.adminView || same(c.author.userName, u.email) || c.assignees.some((a) => same(a.userName, u.email));
}

/** The editable part of a comment (the draft copy of viewer.md §4 "Editing"). */
export interface DraftFields {
  message: string;
  labels: readonly string[];
  assignees: readonly { userName: string }[];
  markerLocation: { x: number; y: number; z: number } | null;
  /** Attachment identities (file ids, or a local key for ones not yet uploaded). */
  attachmentKeys: readonly string[];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const samePoint = (a: DraftFields['markerLocation'], b: DraftFields['markerLocation']) =>
  a === b || (!!a && !!b && a.x === b.x && a.y === b.y && a.z === b.z);

/** True when the draft differs from the original (Cancel then asks for confirmation, viewer.md §4). */
export function draftChanged(draft: DraftFields, original: DraftFields): boolean {
  return (
    draft.message !== original.message ||
    !sameList(draft.labels, original.labels) ||
    !sameList(
      draft.assignees.map((a) => a.userName),
      original.assignees.map((a) => a.userName),
    ) ||
    !samePoint(draft.markerLocation, original.markerLocation) ||
    !sameList(draft.attachmentKeys, original.attachmentKeys)
  );
}

/** Submit is enabled only with a non-empty message, a change, and no submit in progress (viewer.md §4). */
export function maySubmit(draft: DraftFields, original: DraftFields, submitting: boolean): boolean {
  return !submitting && draft.message.trim().length > 0 && draftChanged(draft, original);
}

/** The confirmation asked by Cancel: 'Discard comment?' for a new comment, 'Discard modification?' for an edit. */
export function discardQuestion(isNew: boolean): string {
  return isNew ? 'Discard comment?' : 'Discard modification?';
}

/** The confirmation asked by delete (viewer.md §2). */
export function deleteQuestion(type: string): string {
  return type === 'Thread' ? 'Delete this thread?' : 'Delete this reply?';
}

/** Success toasts, 5 s (viewer.md §8). */
export const COMMENT_TOASTS = {
  threadPosted: 'Comment was posted',
  replyPosted: 'Reply was posted',
  stateChanged: 'Comment state was changed',
  changed: 'Comment/Reply was deleted/updated',
} as const;
