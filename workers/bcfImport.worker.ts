/**
 * BCF import worker entry (piscina; ARCHITECTURE.md "workers/ — thin entry points"): reads one package with
 * api/comments/bcf/bcfImportRunner.ts readBcfPackage in a worker thread, off the server's request thread.
 */
import { type BcfImportOutcome, type BcfImportTask, readBcfPackage } from '../api/comments/bcf/bcfImportRunner';

/** One package (plain data) → its threads and warnings, or the refusal's message. @throws like readBcfPackage. */
export default function bcfImport(task: BcfImportTask): BcfImportOutcome {
  return readBcfPackage(task);
}
