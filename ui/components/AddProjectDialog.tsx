/**
 * The 'Add project' dialog of application.md §2 "Dialogs of the start page": an uploaded project file
 * (here OCX: .3docx, .ocx, .xml, ARCHITECTURE.md "Names"), a name and a description; when the name exists
 * the overwrite choice 'Add new revision' / 'Replace latest' / 'Cancel' follows.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useId, useState, type FormEvent } from 'react';
import { FormField } from './FormField';
import { normalizeProjectName, projectExists, projectNameFromFile } from '../stores/projects';

/** Accepted project file types. */
export const PROJECT_FILE_ACCEPT = '.3docx,.ocx,.xml';

export interface AddProjectRequest {
  file: File;
  projectName: string;
  description: string;
  overwriteIfExists: boolean;
}

export function AddProjectDialog({
  open,
  onClose,
  onSubmit,
}: {
  open: boolean;
  onClose: () => void;
  onSubmit: (r: AddProjectRequest) => void;
}) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<{ file?: string; name?: string }>({});
  const [askOverwrite, setAskOverwrite] = useState(false);

  function reset() {
    setFile(null);
    setName('');
    setDescription('');
    setErrors({});
    setAskOverwrite(false);
  }
  function close() {
    reset();
    onClose();
  }
  function finish(overwriteIfExists: boolean) {
    if (!file) return;
    onSubmit({ file, projectName: normalizeProjectName(name), description: description.trim(), overwriteIfExists });
    close();
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    const errs: typeof errors = {};
    if (!file) errs.file = 'Field is required';
    if (!name.trim()) errs.name = 'Field is required';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    if (projectExists(name)) setAskOverwrite(true);
    else finish(false);
  }

  return (
    <Dialog open={open} onClose={close} className="relative z-40">
      <div className="fixed inset-0 bg-slate-900/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        {!askOverwrite ? (
          <DialogPanel className="panel w-full max-w-md p-6">
            <DialogTitle className="mb-4 text-lg font-semibold text-ink">Add project</DialogTitle>
            <form className="space-y-4" onSubmit={submit} noValidate>
              <div className="space-y-1">
                <label htmlFor={fileId} className="block text-sm font-medium text-slate-700">
                  Project file
                </label>
                <input
                  id={fileId}
                  type="file"
                  accept={PROJECT_FILE_ACCEPT}
                  className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-brand-100"
                  onChange={(e) => {
                    const f = e.target.files?.[0] ?? null;
                    setFile(f);
                    if (f && !name.trim()) setName(projectNameFromFile(f.name));
                  }}
                />
                {errors.file && (
                  <p role="alert" className="text-xs text-rose-600">
                    {errors.file}
                  </p>
                )}
              </div>
              <FormField label="Project name" value={name} onChange={setName} error={errors.name} />
              <FormField label="Description" value={description} onChange={setDescription} />
              <div className="flex justify-end gap-2 pt-2">
                <button type="button" className="btn-secondary" onClick={close}>
                  Cancel
                </button>
                <button type="submit" className="btn-primary">
                  Add
                </button>
              </div>
            </form>
          </DialogPanel>
        ) : (
          <DialogPanel className="panel w-full max-w-md p-6">
            <DialogTitle className="mb-2 text-lg font-semibold text-ink">Project exists</DialogTitle>
            <p className="text-sm text-slate-600">
              A project named <span className="font-semibold">{normalizeProjectName(name)}</span> already exists. Add
              the file as a new revision, or replace the latest revision?
            </p>
            <div className="mt-6 flex justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={close}>
                Cancel
              </button>
              <button type="button" className="btn-secondary" onClick={() => finish(true)}>
                Replace latest
              </button>
              <button type="button" className="btn-primary" onClick={() => finish(false)}>
                Add new revision
              </button>
            </div>
          </DialogPanel>
        )}
      </div>
    </Dialog>
  );
}
