/**
 * Peak memory of a process tree, sampled from Linux /proc (the goals bench's "browser peak memory" of the
 * 2,000,000-part ship): every `intervalMs` the resident (VmRSS) and proportional (Pss, from
 * smaps_rollup) set sizes of every descendant of `root` whose command line matches `match` are summed; the
 * largest sums are kept with the per-kind split (Chromium's --type=renderer / gpu-process / utility, or
 * "browser" for the main process) at the moment of the PSS peak. PSS counts shared pages once across the
 * tree, so it is the fairer total; RSS sums count them per process. Linux only (no /proc: peaks stay 0).
 */
import { readFileSync, readdirSync } from 'node:fs';

/** One sample or peak, MB (10^6 bytes). */
export interface TreeMemory {
  rssMB: number;
  pssMB: number;
  /** PSS by process kind at that moment, MB. */
  byKind: Record<string, number>;
  processes: number;
}

/** A running sampler: stop() ends it and returns the peaks. */
export interface MemorySampler {
  stop(): { peakRss: TreeMemory; peakPss: TreeMemory; samples: number };
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Parent of every live process (from /proc/PID/stat; the command name may hold spaces and parentheses). */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  let names: string[] = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readOr(`/proc/${name}/stat`);
    const close = stat.lastIndexOf(')');
    if (close < 0) continue;
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    out.set(Number(name), ppid);
  }
  return out;
}

/** kB figure `key` of a /proc status-like text, or 0. */
function kB(text: string, key: string): number {
  const m = text.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
  return m ? Number(m[1]) : 0;
}

/** Current memory of the descendants of `root` whose command line contains `match`. */
export function treeMemory(root: number, match: string): TreeMemory {
  const parent = parents();
  const inTree = (pid: number): boolean => {
    for (let p = parent.get(pid), hops = 0; p !== undefined && hops < 64; p = parent.get(p), hops++)
      if (p === root) return true;
    return false;
  };
  const sample: TreeMemory = { rssMB: 0, pssMB: 0, byKind: {}, processes: 0 };
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    // Chromium rewrites its children's titles into one space-separated string: search the whole line.
    const cmd = readOr(`/proc/${pid}/cmdline`).replaceAll('\0', ' ');
    if (!cmd.split(' ')[0].includes(match)) continue;
    const kind = cmd.match(/--type=(\S+)/)?.[1] ?? 'browser';
    const rss = kB(readOr(`/proc/${pid}/status`), 'VmRSS') / 1000;
    const pss = kB(readOr(`/proc/${pid}/smaps_rollup`), 'Pss') / 1000;
    sample.rssMB += rss;
    sample.pssMB += pss;
    sample.byKind[kind] = (sample.byKind[kind] ?? 0) + pss;
    sample.processes++;
  }
  return sample;
}

/**
 * Samples treeMemory(root, match) every `intervalMs` (also once at the start and at stop) until stopped.
 * Sampling a tree of a dozen processes reads ~40 small /proc files: well under a millisecond of CPU.
 */
export function sampleTreeMemory(root: number, match: string, intervalMs = 250): MemorySampler {
  const empty = (): TreeMemory => ({ rssMB: 0, pssMB: 0, byKind: {}, processes: 0 });
  let peakRss = empty(),
    peakPss = empty(),
    samples = 0;
  const take = () => {
    const s = treeMemory(root, match);
    samples++;
    if (s.rssMB > peakRss.rssMB) peakRss = s;
    if (s.pssMB > peakPss.pssMB) peakPss = s;
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { peakRss, peakPss, samples };
    },
  };
}
