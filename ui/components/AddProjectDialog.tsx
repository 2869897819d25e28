/**
 * The 'Add project' dialog of application.md §2 "Dialogs of the start page": the source (a server location
 * — a directory on the server or another Keelson server, from the configured project locations —, a
 * directory on the user's computer, or an uploaded project file; here OCX: .3docx, .ocx, .xml,
 * ARCHITECTURE.md "Names"), a name and a description; when the name exists the overwrite choice 'Add new
 * revision' / 'Replace latest' / 'Cancel' follows.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AvailableProjectLocation } from '../../api/contract';
import { isServerSource, splitServerSource } from '../../api/contract';
import { getProjectLocations } from '../api/locations';
import { FormField } from './FormField';
import { LocationTree } from './LocationTree';
import { type LocationSource, normalizeProjectName, projectExists, projectNameFromFile } from '../stores/projects';

/** The dialog's text when no location holds a project (application.md §2, §8). */
export const NO_REMOTE_PROJECTS_TEXT =
  'No remote projects found. Configure project locations in the server application.';

/** Where the project comes from. */
const SOURCES = [
  { id: 'server', label: 'Server location' },
  { id: 'directory', label: 'Local directory' },
  { id: 'file', label: 'Project file' },
] as const;
type SourceId = (typeof SOURCES)[number]['id'];

/** Project files in a directory picked on the user's computer. */
function projectFilesOf(list: FileList | null): File[] {
  const exts = PROJECT_FILE_ACCEPT.split(',');
  return [...(list ?? [])]
    .filter((f) => exts.some((e) => f.name.toLowerCase().endsWith(e)))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A project of a server location: its source and the default project name. */
function locationSource(filePath: string): { source: LocationSource; name: string } {
  if (isServerSource(filePath)) {
    const { url, project } = splitServerSource(filePath);
    return { source: { kind: 'server', url, project }, name: project };
  }
  const base = filePath.split(/[\\/]/).pop() ?? filePath;
  return { source: { kind: 'directory', path: filePath }, name: projectNameFromFile(base.replace(/\.zip$/i, '')) };
}

/** Accepted project file types. */
export const PROJECT_FILE_ACCEPT = '.3docx,.ocx,.xml';

export interface AddProjectRequest {
  file: File;
  projectName: string;
  description: string;
  overwriteIfExists: boolean;
}

/** A project to add from a server location. */
export interface AddLocationRequest {
  source: LocationSource;
  projectName: string;
  description: string;
  overwriteIfExists: boolean;
}

export function AddProjectDialog({
  open,
  onClose,
  onSubmit,
  onSubmitLocation,
}: {
  open: boolean;
  onClose: () => void;
  onSubmit: (r: AddProjectRequest) => void;
  onSubmitLocation: (r: AddLocationRequest) => void;
}) {
  const fileId = useId();
  const dirId = useId();
  const [sourceId, setSourceId] = useState<SourceId>('file');
  const [file, setFile] = useState<File | null>(null);
  const [dirFiles, setDirFiles] = useState<File[] | null>(null);
  const [locations, setLocations] = useState<AvailableProjectLocation[] | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<{ file?: string; name?: string }>({});
  const [askOverwrite, setAskOverwrite] = useState(false);
  const dirInput = useRef<HTMLInputElement | null>(null);

  // The locations are read when the server source is first chosen in an open dialog.
  useEffect(() => {
    if (!open || sourceId !== 'server' || locations) return;
    let live = true;
    getProjectLocations().then(
      (l) => live && setLocations(l),
      () => live && setLocations([]),
    );
    return () => {
      live = false;
    };
  }, [open, sourceId, locations]);
  // Browsers pick directories only with the non-standard webkitdirectory attribute.
  useEffect(() => {
    dirInput.current?.setAttribute('webkitdirectory', '');
  });

  function reset() {
    setSourceId('file');
    setFile(null);
    setDirFiles(null);
    setLocations(null);
    setPicked(null);
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
    const projectName = normalizeProjectName(name);
    if (sourceId === 'server' && picked)
      onSubmitLocation({
        source: locationSource(picked).source,
        projectName,
        description: description.trim(),
        overwriteIfExists,
      });
    else if (file) onSubmit({ file, projectName, description: description.trim(), overwriteIfExists });
    else return;
    close();
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    const errs: typeof errors = {};
    if (sourceId === 'server' ? !picked : !file) errs.file = 'Field is required';
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
              <fieldset className="flex gap-4 text-sm text-slate-700">
                <legend className="mb-1 block text-sm font-medium text-slate-700">Source</legend>
                {SOURCES.map((src) => (
                  <label key={src.id} className="flex items-center gap-1">
                    <input
                      type="radio"
                      name="project-source"
                      checked={sourceId === src.id}
                      onChange={() => {
                        setSourceId(src.id);
                        setFile(null);
                        setPicked(null);
                        setErrors({});
                      }}
                    />
                    {src.label}
                  </label>
                ))}
              </fieldset>
              {sourceId === 'server' && (
                <LocationTree
                  locations={locations}
                  multiple={false}
                  selected={picked ? [picked] : []}
                  emptyText={NO_REMOTE_PROJECTS_TEXT}
                  onChange={([p]) => {
                    setPicked(p ?? null);
                    if (p && !name.trim()) setName(locationSource(p).name);
                  }}
                />
              )}
              {sourceId === 'directory' && (
                <div className="space-y-1">
                  <label htmlFor={dirId} className="block text-sm font-medium text-slate-700">
                    Directory
                  </label>
                  <input
                    id={dirId}
                    ref={dirInput}
                    type="file"
                    multiple
                    className="block w-full text-sm text-slate-600"
                    onChange={(e) => {
                      setDirFiles(projectFilesOf(e.target.files));
                      setFile(null);
                    }}
                  />
                  {dirFiles && dirFiles.length === 0 && (
                    <p className="text-xs text-slate-500">The directory holds no project file.</p>
                  )}
                  {dirFiles && dirFiles.length > 0 && (
                    <ul className="max-h-40 overflow-auto rounded-md border border-slate-200 p-2">
                      {dirFiles.map((f) => (
                        <li key={f.webkitRelativePath || f.name}>
                          <label className="flex items-center gap-2 text-sm text-slate-700">
                            <input
                              type="radio"
                              name="directory-file"
                              checked={file === f}
                              onChange={() => {
                                setFile(f);
                                if (!name.trim()) setName(projectNameFromFile(f.name));
                              }}
                            />
                            {f.webkitRelativePath || f.name}
                          </label>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              )}
              {sourceId === 'file' && (
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
                </div>
              )}
              {errors.file && (
                <p role="alert" className="text-xs text-rose-600">
                  {errors.file}
                </p>
              )}
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
