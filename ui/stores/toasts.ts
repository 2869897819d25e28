/**
 * Toast messages (application.md §2 "Toast messages are stacked at the bottom right, 80 px apart", §8,
 * §9 "Success toast duration 5000 ms"; viewer.md §3 "toast kinds success, info, warning, error ...
 * default -1 = stays").
 */
import { proxy } from 'valtio';

export type ToastKind = 'success' | 'info' | 'warning' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  /** ms until it closes, -1 = stays until closed. */
  timeout: number;
}

/** Default durations: success and warning 5 s (§9); info 5 s; errors stay until closed. */
export const TOAST_DEFAULT_TIMEOUT: Readonly<Record<ToastKind, number>> = {
  success: 5000,
  info: 5000,
  warning: 5000,
  error: -1,
};

/** Distance between stacked toasts, px (§9). */
export const TOAST_STACK_PX = 80;

export const toastStore = proxy({ toasts: [] as Toast[] });
let nextId = 1;

/** Shows a toast; returns its id. Identical text already on screen is not repeated. */
export function showToast(kind: ToastKind, text: string, timeout = TOAST_DEFAULT_TIMEOUT[kind]): number {
  const existing = toastStore.toasts.find((t) => t.text === text && t.kind === kind);
  if (existing) return existing.id;
  const id = nextId++;
  toastStore.toasts.push({ id, kind, text, timeout });
  if (timeout > 0) setTimeout(() => closeToast(id), timeout);
  return id;
}

/** Closes a toast. */
export function closeToast(id: number): void {
  const i = toastStore.toasts.findIndex((t) => t.id === id);
  if (i >= 0) toastStore.toasts.splice(i, 1);
}
