/**
 * Texts and colours of the comment cards and editor (viewer.md §2 "Comments panel", §5): the timestamp
 * format and relative time, 'rev. N (latest)', assignee names, label chip colours, the label combobox's
 * matching and no-match text, and the marker location tooltip.
 */
import dayjs from 'dayjs';

/** Timestamp format of the cards and the tooltip (viewer.md §2). */
export const COMMENT_DATE_FORMAT = 'ddd DD MMMM YYYY H:mm';

/** Delay before the Created/Updated tooltip opens, ms (viewer.md §2). */
export const TIMESTAMP_TOOLTIP_DELAY_MS = 300;

/** Formats a time (ISO string or epoch ms) as 'ddd DD MMMM YYYY H:mm'; '' when unreadable. */
export function formatCommentTime(t: string | number | null | undefined): string {
  if (t === null || t === undefined || t === '') return '';
  const d = dayjs(t);
  return d.isValid() ? d.format(COMMENT_DATE_FORMAT) : '';
}

const UNITS = [
  ['year', 365 * 24 * 60],
  ['week', 7 * 24 * 60],
  ['day', 24 * 60],
  ['hour', 60],
  ['minute', 1],
] as const;

/**
 * Relative time in the units of viewer.md §2 (minute, hour, day, week, year): the largest unit that fits,
 * rounded down ('3 hours ago', '1 week ago'); 'just now' under a minute; 'in N unit(s)' for future times
 * (a client clock behind the server's).
 */
export function relativeTime(t: string | number, now: number): string {
  const then = dayjs(t);
  if (!then.isValid()) return '';
  const minutes = Math.floor(Math.abs(now - then.valueOf()) / 60_000);
  if (minutes < 1) return 'just now';
  const future = then.valueOf() > now;
  for (const [unit, size] of UNITS) {
    if (minutes < size) continue;
    const n = Math.floor(minutes / size);
    const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
    return future ? `in ${text}` : `${text} ago`;
  }
  return 'just now';
}

/** The card's revision label: 'rev. N', plus ' (latest)' when N is the model's highest revision. */
export function revisionLabel(revision: number, revisions: readonly number[]): string {
  const latest = revisions.length > 0 && revision === Math.max(...revisions);
  return latest ? `rev. ${revision} (latest)` : `rev. ${revision}`;
}

/** A user as the cards show them: the description, or the user name when there is none (viewer.md §2). */
export function authorName(u: { description?: string | null; userName: string }): string {
  return u.description?.trim() ? u.description : u.userName;
}

/** Assignee candidates display as 'description (userName)' (viewer.md §5). */
export function assigneeOption(u: { description?: string | null; userName: string }): string {
  return u.description?.trim() ? `${u.description} (${u.userName})` : u.userName;
}

/** The card's 'To: a, b' line, or '' with no assignees. */
export function assigneesLine(list: readonly { description?: string | null; userName: string }[]): string {
  return list.length ? `To: ${list.map(authorName).join(', ')}` : '';
}

/** 32-bit string hash (Java's s[0]*31^(n-1) + ...), stable across sessions and browsers. */
export function stringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** Hue 0..359 of a label (from its string hash). */
export function labelHue(label: string): number {
  return ((stringHash(label) % 360) + 360) % 360;
}

/** Label chip colour: hue from the string hash, saturation 100 %, lightness 87 % (viewer.md §5). */
export function labelColour(label: string): string {
  return `hsl(${labelHue(label)}, 100%, 87%)`;
}

/** Labels whose text contains `text`, case-insensitively (viewer.md §5); all of them for an empty text. */
export function matchLabels(labels: readonly string[], text: string): string[] {
  const q = text.trim().toLowerCase();
  return q ? labels.filter((l) => l.toLowerCase().includes(q)) : [...labels];
}

/** The combobox's text when nothing matches (viewer.md §8). */
export function noLabelsText(text: string): string {
  return `No labels found matching "${text}". Press Tab or Enter to create new.`;
}

/** Longest label, characters (the contract bounds labels; the combobox refuses longer ones). */
export const MAX_LABEL_LENGTH = 100;

/**
 * Adds a typed label (Tab or Enter): trimmed; an existing label of the same text in another case is
 * reused; nothing added when empty, too long or already present. Returns the new list.
 */
export function addLabel(current: readonly string[], known: readonly string[], typed: string): string[] {
  const t = typed.trim();
  if (!t || t.length > MAX_LABEL_LENGTH) return [...current];
  const same = (l: string) => l.toLowerCase() === t.toLowerCase();
  if (current.some(same)) return [...current];
  return [...current, known.find(same) ?? t];
}

/** A marker location (m) as the marker tooltip shows it: 'x, y, z' to 3 decimals. */
export function markerText(p: { x: number; y: number; z: number }): string {
  return `${p.x.toFixed(3)}, ${p.y.toFixed(3)}, ${p.z.toFixed(3)}`;
}

/** The '+N replies' line of a collapsed thread, the spec's text for every N ('' with none). */
export function repliesText(n: number): string {
  return n > 0 ? `+${n} replies` : '';
}

/** Size of an attachment for display (B, KB, MB). */
export function fileSizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
