/**
 * The fuzz harness's hang bound in CPU time of the import thread (tests/fuzz/ocxHarness.ts): on a shared
 * machine a wall-clock bound calls a case a hang when it only waited for a core. Node 20 has no
 * process.threadCpuUsage, so the worker thread publishes its Linux thread id and its CPU time at the start
 * of a case in a shared array (publishThreadClock), and the harness reads the thread's utime + stime from
 * /proc/self/task/<tid>/stat while the case runs (watchHang). CPU time spent for the thread by V8's helper
 * threads (concurrent GC, compilation) is not counted. Where /proc cannot be read, the bound is wall clock.
 */
import { existsSync, readFileSync, readlinkSync } from 'node:fs';

/** /proc's clock ticks per second (USER_HZ: 100 on Linux whatever the kernel's own tick rate). */
const TICKS_PER_SECOND = 100;

/** Can a thread's CPU time be read here (Linux /proc)? */
export function threadCpuReadable(): boolean {
  return existsSync('/proc/thread-self/stat');
}

/** utime + stime (ms) from the text of a /proc/…/stat file; undefined when it does not parse. */
export function cpuMsOfStat(stat: string): number | undefined {
  // the command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(rest[11]) + Number(rest[12]);
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
}

/** CPU time (ms) of thread `tid` of this process, or undefined when it cannot be read (thread ended, no /proc). */
export function threadCpuMs(tid: number): number | undefined {
  try {
    return cpuMsOfStat(readFileSync(`/proc/self/task/${tid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/**
 * A case's thread clock shared between the harness and the worker: [0] the worker's thread id (0 until
 * published, -1 when unknown), [1] its CPU time (ms) when the case started.
 */
export function newThreadClock(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(8));
}

/** The calling thread's id (Linux), or -1 when it cannot be read. */
function ownThreadId(): number {
  try {
    // '/proc/thread-self' links to '<pid>/task/<tid>'
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : -1;
  } catch {
    return -1;
  }
}

/** Called by the worker at the start of a case: publishes its thread id and CPU time so far. */
export function publishThreadClock(clock: Int32Array): void {
  const tid = ownThreadId();
  const start = tid > 0 ? threadCpuMs(tid) : undefined;
  Atomics.store(clock, 1, Math.round(start ?? 0));
  Atomics.store(clock, 0, start === undefined ? -1 : tid);
}

/** CPU time (ms) of the case's thread since it started the case; undefined before it published or when unknown. */
export function caseCpuMs(clock: Int32Array): number | undefined {
  const tid = Atomics.load(clock, 0);
  if (tid <= 0) return undefined;
  const now = threadCpuMs(tid);
  return now === undefined ? undefined : now - Atomics.load(clock, 1);
}

/** Which bound ended a case. */
export type HangBound = 'cpu' | 'wall';

/** Bounds of one case: CPU time of its thread (none: wall clock only) and wall clock. */
export interface HangBounds {
  /** Past this much CPU time of the import thread (ms) the case is a hang; undefined where it cannot be read. */
  cpuMs?: number;
  /** Past this much wall-clock time (ms) the case is a hang too (the safety bound of a thread stuck off-CPU). */
  wallMs: number;
}

/** A watch on one running case (see watchHang). */
export interface HangWatch {
  /** Aborted when a bound is passed (give it to the pool's run). */
  signal: AbortSignal;
  /** The bound passed, or undefined. */
  ended(): HangBound | undefined;
  /** The case's CPU time at the last poll (ms), or undefined. */
  lastCpuMs(): number | undefined;
  /** Ends the watch (call when the case has ended). */
  stop(): void;
}

/**
 * Watches a case: every `pollMs` reads its CPU time with `cpuMs` (caseCpuMs of its clock) and aborts the
 * signal once it passes bounds.cpuMs, or once bounds.wallMs of wall clock have passed.
 */
export function watchHang(bounds: HangBounds, cpuMs: () => number | undefined, pollMs = 250): HangWatch {
  const controller = new AbortController();
  let ended: HangBound | undefined;
  let last: number | undefined;
  const end = (why: HangBound) => {
    if (ended) return;
    ended = why;
    stop();
    controller.abort(new DOMException(`past the ${why} bound`, 'TimeoutError'));
  };
  const wall = setTimeout(() => end('wall'), bounds.wallMs);
  const poll =
    bounds.cpuMs === undefined
      ? undefined
      : setInterval(() => {
          last = cpuMs() ?? last;
          if (last !== undefined && last > (bounds.cpuMs as number)) end('cpu');
        }, pollMs);
  const stop = () => {
    clearTimeout(wall);
    if (poll) clearInterval(poll);
  };
  return { signal: controller.signal, ended: () => ended, lastCpuMs: () => last, stop };
}
