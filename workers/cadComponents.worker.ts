/**
 * CAD components worker entry (piscina; ARCHITECTURE.md "workers/ — thin entry points"): runs
 * api/conversion/cadComponents.ts addCadComponents with api/cad/convertCad.ts in a worker thread and posts
 * `{ done, total }` after each file on the task's MessagePort. The pool aborts a task by ending the thread.
 */
import type { MessagePort } from 'node:worker_threads';
import { convertCadFile } from '../api/cad/convertCad';
import type { CadAddTask } from '../api/conversion/cadAdders';
import { addCadComponents, type CadComponentsResult } from '../api/conversion/cadComponents';

/** A task as sent by api/conversion/cadAdders.ts. */
export interface CadComponentsWorkerTask extends CadAddTask {
  port: MessagePort;
}

export default async function addComponents(task: CadComponentsWorkerTask): Promise<CadComponentsResult> {
  const { port, dir, modelName, files, cadDir } = task;
  try {
    return await addCadComponents(dir, modelName, files, cadDir, convertCadFile, undefined, (done, total) =>
      port.postMessage({ done, total }),
    );
  } finally {
    port.close();
  }
}
