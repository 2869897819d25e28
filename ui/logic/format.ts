/**
 * Display formatting for the start view and the top bar: dates (application.md §9 date format
 * 'ddd DD.MM.YYYY H:mm:ss'), revision lists (newest first, §2), thumbnails (base64 png, §3).
 */
import dayjs from 'dayjs';

/** The date format of application.md §9. */
export const DATE_FORMAT = 'ddd DD.MM.YYYY H:mm:ss';

/** Formats an ISO date or epoch ms in the spec's format; unparsable input is returned as given. */
export function formatDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(DATE_FORMAT) : String(value);
}

/** Minimal revision shape used for ordering. */
export interface RevisionLike {
  revisionInfo: { revisionNumber: number; lastUpdatedDate?: string | null };
}

/** Returns a copy of the revisions sorted newest first (highest revision number first). */
export function sortRevisionsNewestFirst<T extends RevisionLike>(revisions: readonly T[]): T[] {
  return [...revisions].sort((a, b) => b.revisionInfo.revisionNumber - a.revisionInfo.revisionNumber);
}

/** The src of a thumbnail from a base64 png (a data: URL is kept), or null when there is no image. */
export function thumbnailSrc(image: string | null | undefined): string | null {
  if (!image) return null;
  return image.startsWith('data:') ? image : `data:image/png;base64,${image}`;
}

/** Parses the revision query parameter as an integer (application.md §2); null when absent or not a number. */
export function parseRevisionParam(search: string): number | null {
  const raw = new URLSearchParams(search).get('revision');
  if (raw === null || raw.trim() === '') return null;
  const n = Number.parseInt(raw, 10);
  return Number.isFinite(n) ? n : null;
}

/** The text of a permanent access (application.md §2 "Projects tab": 'Permanent' for the permanent value). */
export const PERMANENT = 'Permanent';

/** A valid-until: 'Permanent' for null, else the day as DD.MM.YYYY. */
export function formatValidUntil(value: string | null): string {
  if (value === null) return PERMANENT;
  const d = dayjs(value);
  return d.isValid() ? d.format('DD.MM.YYYY') : value;
}
