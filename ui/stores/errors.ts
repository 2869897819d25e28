/**
 * The stored error of application.md §2 "Error view" and §8 "The error is stored": the reason and message
 * of the last error, kept in session storage so that the /error view can show it after navigation.
 */
import { proxy } from 'valtio';

export interface StoredError {
  reason: string;
  message: string;
}

const KEY = 'keelson.error';

function load(): StoredError | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as StoredError) : null;
  } catch {
    return null;
  }
}

export const errorStore = proxy({ error: load() });

/** Stores an error (replacing the previous one). */
export function storeError(error: StoredError): void {
  errorStore.error = error;
  try {
    sessionStorage.setItem(KEY, JSON.stringify(error));
  } catch {
    /* storage unavailable: the in-memory copy still serves the error view */
  }
}

/** Clears the stored error. */
export function clearError(): void {
  errorStore.error = null;
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* ignore */
  }
}
