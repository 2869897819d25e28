/**
 * Node-only: the command-line options of the threads and child processes that run TypeScript modules
 * (piscina pools of api/threadPool.ts and engine/node/ocx/partPool.ts; the child processes of benches).
 */
import { Worker } from 'node:worker_threads';

/**
 * The execArgv of a child process whose entry is a TypeScript module: the process's own, plus
 * `--import tsx` unless the process already loads it (`node --import tsx`), so it can import `.ts` files.
 */
export function tsxExecArgv(): string[] {
  const argv = process.execArgv;
  const hasTsx = argv.some((a, i) => a.includes('tsx') && (a.startsWith('--import') || argv[i - 1] === '--import'));
  return hasTsx ? argv : [...argv, '--import', 'tsx'];
}

/** workerExecArgv's answer for this process's own options (they do not change). */
let ownWorkerArgv: string[] | null = null;

/**
 * The execArgv of a worker thread whose entry is a TypeScript module: tsxExecArgv() less the options a
 * thread refuses. V8's options (`--max-old-space-size`, `--expose-gc`, `--stack-size`, …) and Node's
 * per-process ones (`--title`, `--use-openssl-ca`, …) may start a process but make `new Worker` throw
 * ERR_WORKER_INVALID_EXEC_ARGV, so a pool given them could start no thread at all (a thread's heap is
 * bounded by its resourceLimits instead). Which options those are is Node's to say, so each option (with
 * its value when that is the next argument) is tried on a Worker made with a workerData that cannot be
 * cloned: Node checks the options first and refuses the data before it starts a thread, so no thread
 * runs. @param argv the options to filter (default: this process's, answered once per process).
 */
export function workerExecArgv(argv?: readonly string[]): string[] {
  if (!argv && ownWorkerArgv) return ownWorkerArgv;
  const all = argv ?? tsxExecArgv();
  const out: string[] = [];
  for (let i = 0; i < all.length; i++) {
    const group = [all[i]];
    // `--import tsx`, `--title name`: the value is the next argument
    if (all[i].startsWith('-') && !all[i].includes('=') && i + 1 < all.length && !all[i + 1].startsWith('-'))
      group.push(all[++i]);
    if (threadAccepts(group)) out.push(...group);
  }
  if (!argv) ownWorkerArgv = out;
  return out;
}

/** False when Node refuses `execArgv` for a worker thread (without starting one). */
function threadAccepts(execArgv: string[]): boolean {
  try {
    new Worker('', { eval: true, execArgv, workerData: () => undefined, stdout: true, stderr: true });
  } catch (e) {
    return (e as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV';
  }
  // A Node that checked the data first would have started a thread; it has nothing to run and ends.
  return true;
}
