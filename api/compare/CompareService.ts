/**
 * Revision comparisons off the request path (application.md §4 "Revision comparison", §7 compare calls):
 * computed in a worker thread (workers/compare.worker.ts through piscina) or, without worker threads, in the
 * server's own thread; cached per revision pair on disk as
 * DATA_DIR/projects/{NAME}/compare/{from}-{to}-{key}.json, where `key` hashes the comparison format and both
 * revisions' last_updated, so a replaced revision never serves a stale comparison (and deleting the project
 * deletes its comparisons). Concurrent requests for one pair share one computation.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { poolRunner } from '../threadPool';
import { COMPARE_FORMAT, type CompareResponse } from '../contract/compare';
import type { ProjectStore, RevisionRow } from '../projects/ProjectStore';
import { type CompareTask, computeComparison } from './computeComparison';

/** Runs one comparison. */
export interface CompareRunner {
  run(task: CompareTask): Promise<CompareResponse>;
  close(): Promise<void>;
}

/** Runs comparisons in the calling thread (tests, CONVERT_IN_WORKERS=false). */
export function inProcessCompareRunner(): CompareRunner {
  return { run: computeComparison, close: async () => {} };
}

/**
 * Runs comparisons in worker threads (at most `maxThreads` at once; each with a heap limit of `memoryMb`):
 * the decoded geometry of two large revisions never burdens the thread that answers requests.
 */
export function workerCompareRunner(maxThreads = 1, memoryMb = 4096): CompareRunner {
  return poolRunner<CompareTask, CompareResponse>(new URL('../../workers/compare.worker.ts', import.meta.url).href, {
    maxThreads,
    memoryMb,
    what: 'Comparison',
  });
}

/** What the server knows about a pair (checkData). */
export interface CompareStatus {
  cached: boolean;
  computing: boolean;
  computedAt: string | null;
}

/** Computes, caches and answers comparisons of a project's revisions. */
export class CompareService {
  private readonly running = new Map<string, Promise<CompareResponse>>();

  constructor(
    private readonly projects: ProjectStore,
    private readonly runner: CompareRunner,
  ) {}

  /** The cache file of a pair: its name carries both revisions' numbers and a hash of their stamps. */
  cacheFile(name: string, from: RevisionRow, to: RevisionRow): string {
    const key = createHash('sha256')
      .update(`${COMPARE_FORMAT}|${from.number}|${from.last_updated}|${to.number}|${to.last_updated}`)
      .digest('hex')
      .slice(0, 16);
    return path.join(this.projects.projectDir(name), 'compare', `${from.number}-${to.number}-${key}.json`);
  }

  /**
   * The comparison of revisions `from` (earlier) and `to` of project `name` (normalised): the cached one
   * when current, else computed once (concurrent callers share it) and cached.
   * @throws Error from the computation (a revision's files unreadable).
   */
  async get(name: string, from: RevisionRow, to: RevisionRow): Promise<CompareResponse> {
    const file = this.cacheFile(name, from, to);
    const cached = await readCached(file);
    if (cached) return cached;
    let p = this.running.get(file);
    if (!p) {
      p = this.compute(name, from, to, file);
      this.running.set(file, p);
      p.finally(() => this.running.delete(file)).catch(() => {});
    }
    return p;
  }

  /** Whether a current comparison of the pair is cached or being computed, and when the cached one was made. */
  async status(name: string, from: RevisionRow, to: RevisionRow): Promise<CompareStatus> {
    const file = this.cacheFile(name, from, to);
    const cached = await readCached(file);
    return { cached: cached !== null, computing: this.running.has(file), computedAt: cached?.computedAt ?? null };
  }

  /** Stops the worker threads. */
  close(): Promise<void> {
    return this.runner.close();
  }

  private async compute(name: string, from: RevisionRow, to: RevisionRow, file: string): Promise<CompareResponse> {
    const loc = async (row: RevisionRow) => {
      const info = JSON.parse(row.info || '{}') as { scFile?: string };
      return { number: row.number, dir: await this.projects.revisionDir(row), scFile: info.scFile ?? `${name}.sc` };
    };
    const result = await this.runner.run({ projectName: name, from: await loc(from), to: await loc(to) });
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true });
    // Comparisons of the same pair under older stamps are stale for good: drop them.
    const prefix = `${from.number}-${to.number}-`;
    for (const f of await readdir(dir).catch(() => [] as string[]))
      if (f.startsWith(prefix) && path.join(dir, f) !== file) await rm(path.join(dir, f), { force: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify(result));
    await rename(tmp, file);
    return result;
  }
}

async function readCached(file: string): Promise<CompareResponse | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const data = JSON.parse(text) as CompareResponse;
    return data && data.format === COMPARE_FORMAT ? data : null;
  } catch {
    // A damaged cache file is recomputed (and overwritten).
    return null;
  }
}
