/**
 * The shapes a conversion is described by (application.md §4 "Model conversion (adding a project)"): what a
 * started conversion needs (ConversionInput, stored as the queued job), how it looks to others
 * (RunningConversion), its CAD step and queue settings, the row its end writes, and the message users see
 * when it fails. Used by api/conversion/ConversionManager.ts and its callers.
 */
import { ConversionStatus, type ConversionStatusValue, type ProgressEvent } from '../contract/common';
import type { ProjectStore } from '../projects/ProjectStore';
import type { JobQueue } from '../jobs/JobQueue';
import type { CadAdder } from './cadAdders';
import type { ConvertOutput } from './convertFile';
import type { CadWaits } from './CadWaits';
import type { LeaseOptions } from './conversionLeases';

/**
 * The message of a failed conversion shown to users: the importer's own message (it names what is wrong
 * and where), but for file-system and other system errors only their code, never server paths or stacks.
 */
export function conversionErrorMessage(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const sys = e as NodeJS.ErrnoException;
  if (typeof sys.syscall === 'string' || (typeof sys.code === 'string' && /^E[A-Z]+$/.test(sys.code)))
    return `A file operation on the server failed (${sys.code ?? 'unknown error'})`;
  return e.message;
}

/** A conversion running or queued anywhere, as the model list and the checks see it. */
export interface RunningConversion {
  id: string;
  startedBy: string;
  progress: number;
  message: string;
  waitingForCadFiles: boolean;
}

/** The CAD step of conversions: where paused conversions wait, and where the components are added. */
export interface CadStep {
  waits: CadWaits;
  adder: CadAdder;
}

/** Where conversions are queued and how long a silent holder lives (README "Running at scale"). */
export interface ConversionJobs {
  /** The queue (default: in-process). */
  queue: JobQueue;
  /** Time-out and attempts of a job whose process dies (default 60 s, 2). */
  leases?: LeaseOptions;
  /** Jobs this process runs at once from a shared queue (default 2). */
  concurrency?: number;
  /** Where queue problems are logged. */
  log?: (message: string) => void;
}

/** What start() needs once the original is on disk (stored as the queued job: JSON, paths in DATA_DIR). */
export interface ConversionInput {
  /** Path of the stored original. */
  input: string;
  description: string;
  /** Replace the latest revision instead of adding one. */
  replace: boolean;
  /** Delete `input` (and `original`) when the conversion fails or is cancelled (uploads: yes). */
  deleteInputOnFailure?: boolean;
  /** The stored upload when `input` was extracted from it (a .zip); kept on success as the original. */
  original?: string;
  /** Scratch files or directories (an extracted archive entry) removed when the conversion ends. */
  scratch?: string[];
  /**
   * Pause for the starter to upload the model's CAD files (a user watches: upload, project location); off
   * (scheduled updates, CLI, demo) uses the files already on the server.
   */
  waitForCadFiles?: boolean;
  /** Set once the model is converted and the conversion paused for its CAD files (then the job resumes it). */
  cadPause?: CadPause;
}

/**
 * A conversion paused for its CAD files (application.md §4 "CAD upload dialog"), recorded in its row's job
 * so any process may answer the dialog and continue it: the model is converted into `tmpDir` (on the
 * shared DATA_DIR) and the rest is the CAD step and the commit.
 */
export interface CadPause {
  /** The temporary revision directory holding the converted model (DATA_DIR/projects/{NAME}/.tmp-{id}). */
  tmpDir: string;
  /** What the model's conversion returned. */
  output: ConvertOutput;
  /** True until the starter continues; false once the rest is queued. */
  waiting: boolean;
  /** When the pause began, ms since the epoch (its time-out counts from here). */
  since: number;
}

/** What a conversion needs of the project store: a temp directory, the commit, the project directory. */
export type RevisionWriter = Pick<ProjectStore, 'createTempDir' | 'commitRevision' | 'projectDir'>;

/** The columns a conversion's end writes. */
export interface EndRow {
  status: ConversionStatusValue;
  progress: number;
  message: string;
  error: string | null;
  finished_at: string;
  worker: null;
}

/** The queued job of a row. */
export function parseJob(job: string): ConversionInput {
  return JSON.parse(job) as ConversionInput;
}

/** The final event of a conversion whose row is gone (released). */
export function cancelledEvent(id: string): ProgressEvent {
  return {
    conversionId: id,
    projectName: '',
    status: ConversionStatus.Canceled,
    message: 'Upload refused',
    subMessages: [],
    progress: 0,
  };
}
