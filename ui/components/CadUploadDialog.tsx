/**
 * The 'Upload CAD components' dialog (application.md §2 "Dialogs of the start page", §4 "CAD upload
 * dialog", §5 "Upload and project files"): the CAD file names the project requires (and extra files on the
 * server) with a status per file — missing, exists, uploading, updating, extra —, a file picker accepting
 * the supported CAD formats, the overwrite checkbox, Continue and Cancel. State and actions live in
 * ui/stores/cadUpload.ts.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useId } from 'react';
import { useSnapshot } from 'valtio';
import { CAD_FORMATS } from '../../api/contract';
import {
  cadUploadStore,
  cancelCadUpload,
  continueConversion,
  pickFiles,
  setOverwrite,
  shownStatus,
} from '../stores/cadUpload';

/** File types the picker offers (the formats Keelson converts; others are refused by the server). */
export const CAD_FILE_ACCEPT = CAD_FORMATS.join(',');

const STATUS_CLASS: Record<string, string> = {
  missing: 'text-rose-700',
  exists: 'text-emerald-700',
  uploading: 'text-sky-700',
  updating: 'text-amber-700',
  extra: 'text-slate-500',
};

export function CadUploadDialog() {
  const s = useSnapshot(cadUploadStore);
  const inputId = useId();
  return (
    <Dialog open={s.open} onClose={() => {}} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/20" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel data-testid="cad-upload-dialog" className="panel w-full max-w-xl p-5">
          <DialogTitle className="mb-2 text-base font-semibold text-ink">Upload CAD components</DialogTitle>
          <p className="mb-3 text-sm text-slate-700">
            The project {s.projectName} needs these CAD files. Choose the files to upload, then Continue.
          </p>
          <table className="mb-3 w-full text-sm">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="py-1 font-medium">File</th>
                <th className="py-1 font-medium">Used by</th>
                <th className="py-1 font-medium">Status</th>
              </tr>
            </thead>
            <tbody>
              {s.files.map((f) => {
                const status = shownStatus(f, s.chosen[f.fileName] !== undefined);
                return (
                  <tr key={f.fileName} data-testid={`cad-file-${f.fileName}`} className="border-t border-slate-100">
                    <td className="py-1 pr-2 break-all">{f.fileName}</td>
                    <td className="py-1 pr-2 text-slate-600">{f.objects.map((o) => o.name || o.id).join(', ')}</td>
                    <td className={`py-1 ${STATUS_CLASS[status]}`} data-status={status}>
                      {status}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700">
            CAD files
          </label>
          <input
            id={inputId}
            type="file"
            multiple
            accept={CAD_FILE_ACCEPT}
            className="mb-2 block w-full text-sm"
            onChange={(e) => {
              pickFiles([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
          {s.refused.length > 0 && (
            <ul data-testid="cad-refused" className="mb-2 text-sm text-rose-700">
              {s.refused.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          )}
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={s.overwrite} onChange={(e) => setOverwrite(e.target.checked)} />
            Overwrite existing files
          </label>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={() => void cancelCadUpload()}>
              Cancel
            </button>
            <button type="button" className="btn-primary" disabled={s.busy} onClick={() => void continueConversion()}>
              Continue
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
