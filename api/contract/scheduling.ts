/**
 * Scheduled project updates (application.md §2 "Scheduling tab", §3 "Project update job", §4 "Other admin
 * state", §5 "Times in a job cannot be duplicated; the format is HH:MM"):
 * - GET  /api/{instance}/scheduling/project-update-schedule → ProjectUpdateJob[]
 * - POST /api/{instance}/scheduling/project-update-schedule body ProjectUpdateJob[] (the whole list) →
 *   the saved list. Both need admin:view. Times are 24-hour HH:MM in the server's schedule time zone.
 */
import * as v from 'valibot';
import { SOURCE_PATH_MAX_LENGTH } from './locations';

/** Most jobs in a schedule. */
export const MAX_JOBS = 100;
/** Most project files one job re-imports. */
export const MAX_SOURCES_PER_JOB = 100;
/** Most times of day in one job (every 15 minutes at most). */
export const MAX_TIMES_PER_JOB = 96;

/** 24-hour HH:MM. */
export const TIME_OF_DAY_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A job: re-imports `sources` at each of `timesOfDay`, as a new revision or replacing the latest. */
export const ProjectUpdateJobSchema = v.object({
  /** Sequence number (a new job gets the number of jobs + 1, §9). */
  id: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)),
  /** Server file paths of directory locations, or 'url->project' of server locations. */
  sources: v.pipe(
    v.array(v.pipe(v.string(), v.nonEmpty(), v.maxLength(SOURCE_PATH_MAX_LENGTH))),
    v.maxLength(MAX_SOURCES_PER_JOB, `At most ${MAX_SOURCES_PER_JOB} project files per job`),
  ),
  timesOfDay: v.pipe(
    v.array(v.pipe(v.string(), v.regex(TIME_OF_DAY_RE, 'Times are HH:MM (24-hour)'))),
    v.maxLength(MAX_TIMES_PER_JOB, `At most ${MAX_TIMES_PER_JOB} times per job`),
    v.check((t) => new Set(t).size === t.length, 'Times in a job cannot be duplicated'),
  ),
  /** E-mail of the user the job runs as; the server sets it to the user who saves the schedule. */
  keelsonId: v.optional(v.pipe(v.string(), v.maxLength(254)), ''),
  overwriteIfExists: v.boolean(),
});
export type ProjectUpdateJob = v.InferOutput<typeof ProjectUpdateJobSchema>;

/** The whole schedule (POST body and GET answer); job ids are unique. */
export const ProjectUpdateScheduleSchema = v.pipe(
  v.array(ProjectUpdateJobSchema),
  v.maxLength(MAX_JOBS, `At most ${MAX_JOBS} jobs`),
  v.check((jobs) => new Set(jobs.map((j) => j.id)).size === jobs.length, 'Job ids must be unique'),
);
