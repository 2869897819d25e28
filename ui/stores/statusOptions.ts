/**
 * The admin editor of object status options (application.md §2 "Settings tab" item 3, §4 "Status options
 * editing", §5 "Status option name", §8 "Messages"). View and edit modes; switching is blocked while a new
 * option is not yet created or a name is invalid. A new option starts as 'New status option' #eeeeee and is
 * created on the server once its name is valid. Rename and recolour are sent as updates, delete removes the
 * option locally first; each is undone when the server call fails. When objects use the option, each change
 * first asks for confirmation ('Change status name', 'Change status color', 'Delete status option').
 */
import { proxy } from 'valtio';
import { DEFAULT_STATUS_COLOR, NEW_STATUS_NAME, statusNameError } from '../../api/contract';
import {
  APPROVAL_MESSAGES,
  addStatusOption,
  deleteStatusOption,
  getStatusOptionUsage,
  getStatusOptions,
  updateStatusOption,
} from '../api/approval';

/** One editable option as the editor holds it: `id` null until created; `saved*` what the server has. */
export interface EditedOption {
  /** Stable key for the list (the id once created). */
  key: string;
  id: number | null;
  name: string;
  savedName: string;
  color: string;
  savedColor: string;
}

/** A change waiting for the administrator's confirmation (objects use the option). */
export interface PendingConfirm {
  kind: 'rename' | 'color' | 'delete';
  key: string;
  /** How many object statuses use the option. */
  count: number;
}

export const statusOptionsStore = proxy({
  loaded: false,
  editing: false,
  options: [] as EditedOption[],
  /** Names of the fixed statuses (not listed; names must differ from them too). */
  fixedNames: [] as string[],
  confirm: null as PendingConfirm | null,
});

let nextKey = 1;

/** The name error of the option `key` (application.md §5), or null. */
export function nameError(key: string): string | null {
  const s = statusOptionsStore;
  const o = s.options.find((x) => x.key === key);
  if (!o) return null;
  const others = [...s.fixedNames, ...s.options.filter((x) => x.key !== key).map((x) => x.name)];
  return statusNameError(o.name, others);
}

/** True while some name is invalid or a new option is not yet created: the mode cannot switch. */
export function hasValidationErrors(): boolean {
  return statusOptionsStore.options.some((o) => o.id === null || nameError(o.key) !== null);
}

/** Loads the editable options (the fixed default and removed statuses are not listed). */
export async function loadStatusOptionsEditor(): Promise<void> {
  const all = await getStatusOptions();
  statusOptionsStore.fixedNames = all.filter((o) => !o.isEditable).map((o) => o.name);
  statusOptionsStore.options = all
    .filter((o) => o.isEditable)
    .map((o) => ({
      key: String(o.id),
      id: o.id,
      name: o.name,
      savedName: o.name,
      color: o.color,
      savedColor: o.color,
    }));
  statusOptionsStore.loaded = true;
}

/** Edit / 'Stop editing' (blocked while hasValidationErrors()). */
export function toggleStatusEditing(): void {
  if (hasValidationErrors()) return;
  statusOptionsStore.editing = !statusOptionsStore.editing;
}

const find = (key: string) => statusOptionsStore.options.find((o) => o.key === key);

/** 'Add object status': a new option 'New status option' #eeeeee, created at once if its name is valid. */
export async function addStatusOptionDraft(): Promise<void> {
  const key = `new-${nextKey++}`;
  statusOptionsStore.options.push({
    key,
    id: null,
    name: NEW_STATUS_NAME,
    savedName: '',
    color: DEFAULT_STATUS_COLOR,
    savedColor: DEFAULT_STATUS_COLOR,
  });
  await createIfValid(key);
}

/** Edits a name locally (validated as typed; sent by commitName). */
export function setOptionName(key: string, name: string): void {
  const o = find(key);
  if (o) o.name = name;
}

/** Edits a colour locally (sent by commitColor). */
export function setOptionColor(key: string, color: string): void {
  const o = find(key);
  if (o) o.color = color.toLowerCase();
}

async function createIfValid(key: string): Promise<void> {
  const o = find(key);
  if (!o || o.id !== null || nameError(key) !== null) return;
  try {
    const { id } = await addStatusOption({ name: o.name.trim(), color: o.color });
    const now = find(key);
    if (!now) return;
    now.id = id;
    now.name = now.name.trim();
    now.savedName = now.name;
    now.savedColor = now.color;
  } catch {
    // The error toast said 'Unable to add status option...'; the option stays unsaved for another try.
  }
}

async function usage(id: number): Promise<number> {
  try {
    return (await getStatusOptionUsage(id)).geometries;
  } catch {
    return -1;
  }
}

/** Options with a commit under way (Enter and the blur that follows must not send twice). */
const committing = new Set<string>();

/** Runs `fn` unless a commit of `key` is under way or waits for confirmation. */
async function once(key: string, fn: () => Promise<void>): Promise<void> {
  if (committing.has(key) || statusOptionsStore.confirm?.key === key) return;
  committing.add(key);
  try {
    await fn();
  } finally {
    committing.delete(key);
  }
}

/** Sends a changed name (a new option is created); asks first when objects use the option. */
export function commitName(key: string): Promise<void> {
  return once(key, () => commitNameNow(key));
}

async function commitNameNow(key: string): Promise<void> {
  const o = find(key);
  if (!o || nameError(key) !== null) return;
  if (o.id === null) return createIfValid(key);
  if (o.name.trim() === o.savedName) {
    o.name = o.savedName;
    return;
  }
  const count = await usage(o.id);
  if (count < 0) return restore(key, 'name');
  if (count > 0) statusOptionsStore.confirm = { kind: 'rename', key, count };
  else await sendName(key);
}

/** Sends a changed colour; asks first when objects use the option. */
export function commitColor(key: string): Promise<void> {
  return once(key, () => commitColorNow(key));
}

async function commitColorNow(key: string): Promise<void> {
  const o = find(key);
  if (!o || o.color === o.savedColor) return;
  if (o.id === null) {
    o.savedColor = o.color;
    return;
  }
  const count = await usage(o.id);
  if (count < 0) return restore(key, 'color');
  if (count > 0) statusOptionsStore.confirm = { kind: 'color', key, count };
  else await sendColor(key);
}

/** Deletes an option (a not yet created one just goes); asks first when objects use it. */
export async function removeOption(key: string): Promise<void> {
  const o = find(key);
  if (!o) return;
  if (o.id === null) {
    statusOptionsStore.options = statusOptionsStore.options.filter((x) => x.key !== key);
    return;
  }
  const count = await usage(o.id);
  if (count < 0) return;
  if (count > 0) statusOptionsStore.confirm = { kind: 'delete', key, count };
  else await sendDelete(key);
}

/** The confirm dialog's action button. */
export async function confirmPending(): Promise<void> {
  const c = statusOptionsStore.confirm;
  statusOptionsStore.confirm = null;
  if (!c) return;
  await once(c.key, () =>
    c.kind === 'rename' ? sendName(c.key) : c.kind === 'color' ? sendColor(c.key) : sendDelete(c.key),
  );
}

/** The confirm dialog's Cancel: the edit is undone. */
export function cancelPending(): void {
  const c = statusOptionsStore.confirm;
  statusOptionsStore.confirm = null;
  if (c?.kind === 'rename') restore(c.key, 'name');
  if (c?.kind === 'color') restore(c.key, 'color');
}

function restore(key: string, what: 'name' | 'color'): void {
  const o = find(key);
  if (!o) return;
  if (what === 'name') o.name = o.savedName;
  else o.color = o.savedColor;
}

async function sendName(key: string): Promise<void> {
  const o = find(key);
  if (!o || o.id === null) return;
  const name = o.name.trim();
  try {
    await updateStatusOption(o.id, { name, color: o.savedColor }, APPROVAL_MESSAGES.renameOption);
    const now = find(key);
    if (now) {
      now.name = name;
      now.savedName = name;
    }
  } catch {
    restore(key, 'name');
  }
}

async function sendColor(key: string): Promise<void> {
  const o = find(key);
  if (!o || o.id === null) return;
  const color = o.color;
  try {
    await updateStatusOption(o.id, { name: o.savedName, color }, APPROVAL_MESSAGES.colorOption);
    const now = find(key);
    if (now) now.savedColor = color;
  } catch {
    restore(key, 'color');
  }
}

async function sendDelete(key: string): Promise<void> {
  const s = statusOptionsStore;
  const at = s.options.findIndex((x) => x.key === key);
  if (at < 0) return;
  const removed = { ...s.options[at] };
  if (removed.id === null) return;
  s.options.splice(at, 1);
  try {
    await deleteStatusOption(removed.id);
  } catch {
    s.options.splice(Math.min(at, s.options.length), 0, removed);
  }
}
