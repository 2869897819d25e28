/**
 * Child process of partPool.startFailure.test.ts: imports the OCX file argv[2] with one tessellation
 * thread and prints one JSON line — `{ objects }` or `{ error }`. With argv[3] === 'refuse-start', the
 * pool's run() throws as it does when Node cannot start a thread (refused options). A child, because the
 * failures under test show in how a process started with V8 options ends (or fails to end).
 */
import { Piscina } from 'piscina';
import { importOcxFile } from '../../../../engine/node/ocx/importFile';

if (process.argv[3] === 'refuse-start')
  Piscina.prototype.run = () => {
    throw Object.assign(new Error('Initiated Worker with invalid execArgv flags: --made-up'), {
      code: 'ERR_WORKER_INVALID_EXEC_ARGV',
    });
  };

// Nothing else keeps this process alive: an import that waits for a batch no thread will run ends the
// process with the await unsettled (exit code 13) instead of printing.
try {
  const r = await importOcxFile(process.argv[2], { threads: 1 });
  console.log(JSON.stringify({ objects: r.objects.length }));
} catch (e) {
  console.log(JSON.stringify({ error: (e as Error).message }));
}
process.exit(0);
