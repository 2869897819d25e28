/**
 * The threaded OCX import in a process started with V8 options, and when no thread can start
 * (engine/node/tsxExecArgv.ts workerExecArgv, engine/node/ocx/partPool.ts):
 * - `node --max-old-space-size=… --expose-gc --stack-size=…` is how large imports are run; those options
 *   are refused by `new Worker`, so the pool's threads are started without them and the import gives
 *   the one-thread result;
 * - when the pool cannot start a thread at all, the import ends with that error instead of waiting for
 *   ever (the process used to exit silently, its import unsettled).
 * Real child processes, real worker threads, a real NAPA export.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { workerExecArgv } from '../../../engine/node/tsxExecArgv';

const SAMPLE = path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M2.3docx');
const CHILD = path.join(__dirname, 'support/threadedImportChild.ts');

/** Runs the child under `node <nodeArgs> --import tsx`; its exit code and the JSON line it printed. */
function child(
  nodeArgs: string[],
  mode = '',
): { status: number | null; out: { objects?: number; error?: string } | null; stderr: string } {
  const r = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', CHILD, SAMPLE, mode], {
    cwd: path.resolve(__dirname, '../../..'),
    encoding: 'utf8',
    timeout: 120_000,
  });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  return { status: r.status, out: line.startsWith('{') ? JSON.parse(line) : null, stderr: r.stderr };
}

describe('worker threads of a process started with V8 options', () => {
  it('workerExecArgv keeps what a thread accepts and leaves out what Node refuses, with separate values', () => {
    const argv = [
      '--max-old-space-size=8000',
      '--import',
      'tsx',
      '--expose-gc',
      '--title',
      'ship',
      '--stack-size',
      '900',
      '--conditions=dev',
      '--no-warnings',
    ];
    const kept = workerExecArgv(argv);
    expect(kept).toEqual(['--import', 'tsx', '--conditions=dev', '--no-warnings']);
    // what is kept starts a real thread
    const w = new Worker('', { eval: true, execArgv: kept });
    return new Promise<void>((resolve, reject) => {
      w.on('error', reject);
      w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`thread ended with ${code}`))));
    });
  });

  it('imports with a thread in `node --max-old-space-size --expose-gc --stack-size` as on one thread', async () => {
    const one = await importOcxFile(SAMPLE, { threads: 0 });
    const r = child(['--max-old-space-size=3000', '--expose-gc', '--stack-size=2000']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.out).toEqual({ objects: one.objects.length });
  }, 150_000);

  it('a pool that cannot start a thread ends the import with that error, not a silent exit', () => {
    const r = child([], 'refuse-start');
    expect(r.status, r.stderr).toBe(0);
    // the message, not a stack: it is what the user reads as the conversion's error
    expect(r.out?.error).toBe('OCX part worker stopped (Initiated Worker with invalid execArgv flags: --made-up)');
  }, 150_000);
});
