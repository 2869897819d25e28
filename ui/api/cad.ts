/**
 * CAD upload calls (application.md §4 "CAD upload dialog", §7 "Projects"; contract api/contract/cad.ts):
 * the paused conversion's state, the multipart upload (field `cadFiles`), the notify that continues it, and
 * the cancel sent while the page unloads.
 */
import { CadFilesStateSchema, SuccessResponseSchema } from '../../api/contract';
import { authHeaders, request, withQuery } from './client';

const base = '/api/viewer/project';

/** GET .../cad-files-state?projectName: the upload state of the project's paused conversion. */
export const getCadFilesState = (projectName: string) =>
  request('GET', `${base}/cad-files-state`, CadFilesStateSchema, { query: { projectName } });

/**
 * POST .../upload-cad-files?projectName&overwrite with one `cadFiles` part per file. A refusal (a name the
 * project does not require, a file already there without overwrite) is shown by the central handling.
 */
export function uploadCadFiles(projectName: string, files: readonly File[], overwrite: boolean) {
  const form = new FormData();
  for (const f of files) form.append('cadFiles', f, f.name);
  return request('POST', `${base}/upload-cad-files`, CadFilesStateSchema, {
    query: { projectName, overwrite },
    body: form,
  });
}

/** POST .../notify-cad-files-uploaded?projectName with the uploaded names: the conversion goes on. */
export const notifyCadFilesUploaded = (projectName: string, fileNames: readonly string[]) =>
  request('POST', `${base}/notify-cad-files-uploaded`, SuccessResponseSchema, {
    query: { projectName },
    body: { fileNames },
  });

/**
 * Cancels the conversion while the page unloads (application.md §4: leaving the page while the dialog is
 * open cancels it): a keepalive request outlives the page.
 */
export function cancelConversionOnUnload(projectName: string): void {
  void fetch(withQuery(`${base}/add/cancel-project`, { projectName }), {
    method: 'DELETE',
    headers: authHeaders(),
    keepalive: true,
  }).catch(() => {});
}
