/**
 * The files a conversion leaves when it does not end in a revision (application.md §4 "Model conversion":
 * a failed or cancelled conversion keeps nothing): its stored upload, extracted archive entries, its
 * staged revision directory and the project directory a first conversion created. Errors are ignored:
 * the clean-up of one file must not stop the others, and a file already gone is what was wanted.
 */
import { rm, rmdir } from 'node:fs/promises';
import type { ConversionInput } from './conversionTypes';

/** Removes the stored upload of a conversion that will not run again: input, original, scratch. */
export async function discardInput(input: ConversionInput): Promise<void> {
  await rm(input.input, { force: true }).catch(() => {});
  if (input.original) await rm(input.original, { force: true }).catch(() => {});
  await removeScratch(input);
}

/** Removes a conversion's scratch files and directories (an extracted archive entry). */
export async function removeScratch(input: ConversionInput): Promise<void> {
  for (const p of input.scratch ?? []) await rm(p, { recursive: true, force: true }).catch(() => {});
}

/**
 * Removes a staged revision directory and then `projectDir` when that is left empty (a failed first
 * conversion leaves no empty project directory; rmdir refuses a non-empty one).
 */
export async function removeStaged(tmpDir: string, projectDir: string): Promise<void> {
  await rm(tmpDir, { recursive: true, force: true }).catch(() => {});
  await rmdir(projectDir).catch(() => {});
}

/**
 * Removes what a queued or paused conversion that ended without running again left: its upload and,
 * when it was paused for its CAD files, the staged directory holding its converted model.
 */
export async function discardQueued(input: ConversionInput, projectDir: string): Promise<void> {
  await discardInput(input);
  if (input.cadPause) await removeStaged(input.cadPause.tmpDir, projectDir);
}
