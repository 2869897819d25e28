/**
 * State of the admin Scheduling tab (application.md §2 "Scheduling tab", §4 "Scheduling changes are saved
 * as a whole list"): the saved jobs, the jobs being edited, and the project locations for the picker.
 */
import { proxy } from 'valtio';
import type { AvailableProjectLocation, ProjectUpdateJob } from '../../api/contract';
import { getProjectLocations, getSchedule, saveSchedule } from '../api/locations';
import { newJobId } from '../logic/schedule';
import { showToast } from './toasts';

export const schedulingStore = proxy({
  /** The list as the server has it; null until loaded. */
  saved: null as ProjectUpdateJob[] | null,
  /** The list as edited. */
  jobs: [] as ProjectUpdateJob[],
  /** The location tree; null while loading. */
  locations: null as AvailableProjectLocation[] | null,
  saving: false,
});

/** Reads the schedule and the project locations (the picker shows 'Loading project locations...' meanwhile). */
export async function loadScheduling(instance: string): Promise<void> {
  schedulingStore.locations = null;
  const locations = getProjectLocations().then(
    (l) => {
      schedulingStore.locations = l;
    },
    () => {
      schedulingStore.locations = [];
    },
  );
  try {
    const list = await getSchedule(instance);
    // Two copies, cloned before valtio adopts the answer: the edited list must not change the saved one.
    schedulingStore.jobs = structuredClone(list);
    schedulingStore.saved = list;
  } catch {
    /* shown by the central handler */
  }
  await locations;
}

/** Adds an empty job numbered by §9's rule, run as `email` once saved. */
export function addJob(email: string): void {
  const jobs = schedulingStore.jobs;
  jobs.push({ id: newJobId(jobs), sources: [], timesOfDay: [], keelsonId: email, overwriteIfExists: false });
}

/** Changes the job at `index`. */
export function updateJob(index: number, patch: Partial<Omit<ProjectUpdateJob, 'id'>>): void {
  Object.assign(schedulingStore.jobs[index], patch);
}

/** Removes the job at `index` (saved with the next 'Save changes'). */
export function removeJob(index: number): void {
  schedulingStore.jobs.splice(index, 1);
}

/** Saves the whole list; the server's answer becomes the saved and the edited list. */
export async function saveJobs(instance: string): Promise<void> {
  schedulingStore.saving = true;
  try {
    const list = await saveSchedule(instance, schedulingStore.jobs);
    schedulingStore.jobs = structuredClone(list);
    schedulingStore.saved = list;
    showToast('success', 'Project update schedule saved');
  } catch {
    /* shown by the central handler */
  } finally {
    schedulingStore.saving = false;
  }
}
