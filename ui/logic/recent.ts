/**
 * The 'Recent' list of application.md §2 (route /{modelName}) and §9 ("Recent models storage key"):
 * model names in local storage under the key 'Recent', most recent last, no duplicates.
 */

/** Local storage key of the recent list. */
export const RECENT_KEY = 'Recent';

/** The part of the Storage interface used here (window.localStorage satisfies it). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Reads the list; a missing or unreadable entry gives []. Non-string items are dropped. */
export function readRecent(storage: KeyValueStorage): string[] {
  const raw = storage.getItem(RECENT_KEY);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Appends `name` as the most recent entry (moving it if already present); returns the new list. */
export function addRecent(storage: KeyValueStorage, name: string): string[] {
  const list = readRecent(storage).filter((n) => n !== name);
  list.push(name);
  storage.setItem(RECENT_KEY, JSON.stringify(list));
  return list;
}

/** Removes `name` from the list; returns the new list. */
export function removeRecent(storage: KeyValueStorage, name: string): string[] {
  const list = readRecent(storage).filter((n) => n !== name);
  storage.setItem(RECENT_KEY, JSON.stringify(list));
  return list;
}
