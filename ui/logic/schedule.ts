/**
 * Rules of the Scheduling tab (application.md §2 "Scheduling tab", §5 "Times in a job cannot be
 * duplicated; the format is HH:MM", §9 "New job id: current number of jobs plus one"). Pure functions.
 */
import { type ProjectUpdateJob, TIME_OF_DAY_RE } from '../../api/contract';

/**
 * The id of a new job: the number of jobs plus one (§9); when a removal left that number in use, the next
 * free one above it, so that two jobs never share a title.
 */
export function newJobId(jobs: readonly Pick<ProjectUpdateJob, 'id'>[]): number {
  const used = new Set(jobs.map((j) => j.id));
  let id = jobs.length + 1;
  while (used.has(id)) id++;
  return id;
}

/** A time typed or picked as H:MM or HH:MM (24-hour), as HH:MM; null when it is not one. */
export function normalizeTime(raw: string): string | null {
  const m = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(raw);
  if (!m) return null;
  const t = `${m[1].padStart(2, '0')}:${m[2]}`;
  return TIME_OF_DAY_RE.test(t) ? t : null;
}

/** True when `raw` is a valid time not yet in the job ('Add time' is enabled). */
export function canAddTime(times: readonly string[], raw: string): boolean {
  const t = normalizeTime(raw);
  return t !== null && !times.includes(t);
}

/** The job's times with `time` added, sorted. */
export function addTime(times: readonly string[], time: string): string[] {
  return [...new Set([...times, time])].sort();
}

/** The parts of a job the user edits (the server sets keelsonId). */
function editable(j: ProjectUpdateJob) {
  return {
    id: j.id,
    sources: [...j.sources].sort(),
    timesOfDay: [...j.timesOfDay].sort(),
    overwriteIfExists: j.overwriteIfExists,
  };
}

/** True when the edited list differs from the saved one ('Save changes' is enabled). */
export function scheduleChanged(saved: readonly ProjectUpdateJob[], edited: readonly ProjectUpdateJob[]): boolean {
  return JSON.stringify(saved.map(editable)) !== JSON.stringify(edited.map(editable));
}
