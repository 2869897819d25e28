/**
 * Admin panel, Scheduling tab (application.md §2 "Scheduling tab", §3 "Project update job", §4 "Scheduling
 * changes are saved as a whole list", §5, §9 "New job id"): the project update jobs, each with the
 * project-file picker (the tree of project locations), the 24-hour time picker, 'Overwrite latest revision
 * if exists' and a remove button; 'Add job' and 'Save changes' (enabled only with unsaved changes). The
 * server runs each job at its times (README "Scheduling").
 */
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { AvailableProjectLocation, ProjectUpdateJob } from '../../api/contract';
import { LocationTree } from '../components/LocationTree';
import { scheduleChanged } from '../logic/schedule';
import { authStore } from '../stores/auth';
import { addJob, loadScheduling, removeJob, saveJobs, schedulingStore, updateJob } from '../stores/scheduling';
import { TimePicker } from './scheduling/TimePicker';

/** Picker text when no location is configured (application.md §2). */
export const NO_LOCATIONS_TEXT =
  'No projects were found, because project locations have not been defined. Enter project locations in the server configuration.';
/** Picker text when the configured locations hold no project. */
export const NO_PROJECTS_TEXT = 'No projects were found in the project locations.';

function JobCard({
  job,
  locations,
  onChange,
  onRemove,
}: {
  job: ProjectUpdateJob;
  locations: readonly AvailableProjectLocation[] | null;
  onChange: (patch: Partial<Omit<ProjectUpdateJob, 'id'>>) => void;
  onRemove: () => void;
}) {
  const title = `Project update job ${job.id}`;
  return (
    <section aria-label={title} className="panel space-y-4 p-4">
      <div className="flex items-center justify-between">
        <h3 className="font-semibold text-ink">{title}</h3>
        <button type="button" className="btn-ghost text-rose-600" aria-label={`Remove ${title}`} onClick={onRemove}>
          Remove
        </button>
      </div>
      <div className="space-y-1">
        <p className="text-sm font-medium text-slate-700">Select Keelson project file(s)</p>
        <LocationTree
          locations={locations}
          multiple
          selected={job.sources}
          onChange={(sources) => onChange({ sources })}
          emptyText={locations && locations.length > 0 ? NO_PROJECTS_TEXT : NO_LOCATIONS_TEXT}
        />
        {/* Also those the tree cannot show now (a file gone, a server not answering). */}
        {job.sources.length > 0 && (
          <p className="break-all text-xs text-slate-500">Selected: {job.sources.join(', ')}</p>
        )}
      </div>
      <TimePicker times={job.timesOfDay} onChange={(timesOfDay) => onChange({ timesOfDay })} />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={job.overwriteIfExists}
          onChange={(e) => onChange({ overwriteIfExists: e.target.checked })}
        />
        Overwrite latest revision if exists
      </label>
    </section>
  );
}

export function SchedulingTab() {
  const { config, user } = useSnapshot(authStore);
  const snap = useSnapshot(schedulingStore);
  const instance = config?.instance ?? 'default';

  useEffect(() => {
    void loadScheduling(instance);
  }, [instance]);

  if (!snap.saved) return <p className="text-sm text-slate-500">Loading…</p>;
  const jobs = snap.jobs as ProjectUpdateJob[];
  const changed = scheduleChanged(snap.saved as ProjectUpdateJob[], jobs);

  return (
    <div className="space-y-4">
      {jobs.length === 0 ? (
        <p className="text-sm text-slate-500">No scheduled project update jobs</p>
      ) : (
        jobs.map((job, i) => (
          <JobCard
            key={job.id}
            job={job}
            locations={snap.locations as AvailableProjectLocation[] | null}
            onChange={(patch) => updateJob(i, patch)}
            onRemove={() => removeJob(i)}
          />
        ))
      )}
      <div className="flex gap-2">
        <button type="button" className="btn-secondary" onClick={() => addJob(user?.email ?? '')}>
          Add job
        </button>
        <button
          type="button"
          className="btn-primary"
          disabled={!changed || snap.saving}
          onClick={() => void saveJobs(instance)}
        >
          Save changes
        </button>
      </div>
    </div>
  );
}
