/**
 * The CAD upload dialog's state (application.md §2 "Upload CAD components", §4 "CAD upload dialog", §5
 * "Upload and project files"): opened for the starter of a conversion that pauses for its CAD files. It
 * lists the required names (and extra files on the server) with a status per file; the user picks files,
 * each accepted only when the project requires its name and it is not already chosen, and an existing file
 * only with Overwrite checked. Continue uploads the picked files and notifies the server (the conversion
 * goes on); Cancel, or leaving the page while the dialog is open, cancels the conversion. 'cadfiles' events
 * keep the server-side statuses current.
 */
import { proxy, ref } from 'valtio';
import type { CadFileState, CadFileStatus, CadFilesState } from '../../api/contract';
import { cancelConversionOnUnload, getCadFilesState, notifyCadFilesUploaded, uploadCadFiles } from '../api/cad';
import { cancelProject } from '../api/calls';
import { onCadFilesEvent } from '../api/realtime';

export const cadUploadStore = proxy({
  open: false,
  projectName: '',
  conversionId: '',
  /** The server's list: required names first, then extra files. */
  files: [] as CadFileState[],
  /** Picked files by name (not proxied: File objects). */
  chosen: {} as Record<string, File>,
  overwrite: false,
  busy: false,
  /** Why picked files were not accepted, one line each. */
  refused: [] as string[],
});

/**
 * The status the dialog shows for a file: a picked file is 'uploading' (new) or 'updating' (replacing one on
 * the server); otherwise the server's status.
 */
export function shownStatus(f: Pick<CadFileState, 'status'>, picked: boolean): CadFileStatus {
  if (!picked) return f.status;
  return f.status === 'exists' || f.status === 'updating' ? 'updating' : 'uploading';
}

/**
 * Splits picked files into accepted ones and refusals (application.md §5): a name the project does not
 * require, a name picked twice (or already picked), or a file on the server while Overwrite is off.
 */
export function checkPicked(
  picked: readonly { name: string }[],
  files: readonly Pick<CadFileState, 'fileName' | 'status'>[],
  alreadyPicked: readonly string[],
  overwrite: boolean,
): { accepted: string[]; refused: string[] } {
  const accepted: string[] = [];
  const refused: string[] = [];
  const taken = new Set(alreadyPicked);
  for (const p of picked) {
    const f = files.find((x) => x.fileName === p.name && x.status !== 'extra');
    if (!f) refused.push(`${p.name} is not a CAD file this project requires`);
    else if (taken.has(p.name)) refused.push(`${p.name} is already chosen`);
    else if (f.status === 'exists' && !overwrite)
      refused.push(`${p.name} is already on the server; check Overwrite existing files to replace it`);
    else {
      taken.add(p.name);
      accepted.push(p.name);
    }
  }
  return { accepted, refused };
}

let offEvents: (() => void) | null = null;
const onPageHide = () => {
  if (cadUploadStore.open) cancelConversionOnUnload(cadUploadStore.projectName);
};

function apply(s: CadFilesState): void {
  if (s.conversionId !== cadUploadStore.conversionId) return;
  if (!s.waiting) close();
  else cadUploadStore.files = s.files;
}

/** Opens the dialog for the paused conversion of `projectName` (no-op when it is open for it already). */
export async function openCadUpload(projectName: string, conversionId: string): Promise<void> {
  if (cadUploadStore.open && cadUploadStore.conversionId === conversionId) return;
  Object.assign(cadUploadStore, {
    open: true,
    projectName,
    conversionId,
    files: [],
    chosen: {},
    overwrite: false,
    busy: false,
    refused: [],
  });
  offEvents ??= onCadFilesEvent(apply);
  window.addEventListener('pagehide', onPageHide);
  try {
    apply(await getCadFilesState(projectName));
  } catch {
    close(); // the conversion no longer waits (the central handler has shown why)
  }
}

/** Adds picked files (those checkPicked accepts); the refusals are listed in the dialog. */
export function pickFiles(files: readonly File[]): void {
  const { accepted, refused } = checkPicked(
    files,
    cadUploadStore.files,
    Object.keys(cadUploadStore.chosen),
    cadUploadStore.overwrite,
  );
  for (const f of files) if (accepted.includes(f.name)) cadUploadStore.chosen[f.name] = ref(f);
  cadUploadStore.refused = refused;
}

/** Toggles Overwrite; turning it off drops the picked replacements of files on the server. */
export function setOverwrite(on: boolean): void {
  cadUploadStore.overwrite = on;
  if (on) return;
  for (const f of cadUploadStore.files)
    if (f.status === 'exists' && cadUploadStore.chosen[f.fileName]) delete cadUploadStore.chosen[f.fileName];
}

/** Continue: uploads the picked files, then tells the server to go on; the dialog closes. */
export async function continueConversion(): Promise<void> {
  const s = cadUploadStore;
  s.busy = true;
  try {
    const files = Object.values(s.chosen);
    if (files.length > 0) await uploadCadFiles(s.projectName, files, s.overwrite);
    await notifyCadFilesUploaded(s.projectName, Object.keys(s.chosen));
    close();
  } catch {
    // The central handler has shown the refusal; the dialog stays for another try.
  } finally {
    s.busy = false;
  }
}

/** Cancel: cancels the conversion (the start page then shows 'Canceled adding project {name}'). */
export async function cancelCadUpload(): Promise<void> {
  const name = cadUploadStore.projectName;
  close();
  await cancelProject(name).catch(() => {});
}

function close(): void {
  cadUploadStore.open = false;
  cadUploadStore.chosen = {};
  cadUploadStore.refused = [];
  window.removeEventListener('pagehide', onPageHide);
}
