/**
 * Conversion worker entry (piscina; ARCHITECTURE.md "workers/ — thin entry points"). Runs
 * api/conversion/convertFile in a worker thread and posts progress on the task's MessagePort as
 * `{ fraction, message }`. The pool aborts a task by terminating the thread.
 */
import type { MessagePort } from 'node:worker_threads';
import { convertFile, type ConvertOutput, type ConvertTask } from '../api/conversion/convertFile';

/** A task as sent by api/conversion/runners.ts. */
export interface ConvertWorkerTask extends ConvertTask {
  port: MessagePort;
}

export default async function convert(task: ConvertWorkerTask): Promise<ConvertOutput> {
  const { port, ...rest } = task;
  try {
    return await convertFile(rest, (fraction, message) => port.postMessage({ fraction, message }));
  } finally {
    port.close();
  }
}
