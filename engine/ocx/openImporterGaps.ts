/**
 * Open importer gaps: parts of the shared samples whose computed figure is outside FIDELITY_TARGETS
 * because the importer still lacks a capability — NOT errors of the files. The table is a ratchet:
 * tests/engine/ocx/fidelity.corpus.test.ts requires every listed quantity to still deviate (fixing a
 * capability forces removing its rows) and every unlisted one to be within the target. `npm run
 * ocx:check` prints them as "open importer gaps" and does not count them as within the target. Keep it
 * short: a row is a debt, not an excuse.
 */
import type { DeviationQuantity } from './expectedDeviations';
import type { FidelityExclusions } from './fidelity';

/** One open gap: the part, the quantity and the capability the importer lacks. */
export interface ImporterGap {
  /** File base name. */
  file: string;
  /** OCX @id of the part. */
  part: string;
  quantity: DeviationQuantity;
  /** The missing capability, in a few words. */
  capability: string;
}

/** The table: empty — every compared part of the shared samples agrees or is a proven file error. */
export const OPEN_IMPORTER_GAPS: readonly ImporterGap[] = [];

/** The rows of one file (by base name). */
export function importerGapsOf(file: string): ImporterGap[] {
  return OPEN_IMPORTER_GAPS.filter((g) => g.file === file);
}

/** The keys (`${part}|${quantity}`) of one file's gaps, for summarizeFidelity in the ratchet test. */
export function gapKeysOf(file: string): FidelityExclusions {
  return new Set(importerGapsOf(file).map((g) => `${g.part}|${g.quantity}`));
}
