/**
 * Ship sections as the viewer lists them (viewer.md §3 "Ship section", §4 "Section drawing", §8 toasts):
 * one entry per section node under '{axis}-sections', merged from the sections created in this session
 * and the saved ones (GET /api/viewer/ship-sections). Pure list logic and the spec's texts.
 */
import type { SectionAxis, SectionStepError } from '../../engine/EngineApi';
import { sectionName } from '../../engine/section/types';

/** A section node (name = axis + '=' + upper-cased location). */
export interface SectionEntry {
  name: string;
  axis: SectionAxis;
  /** Location as entered, upper-cased (frame syntax). */
  location: string;
  /** Evaluated coordinate along the axis, mm; null until evaluated. */
  mm: number | null;
  /** Saved on the server (isSaved of viewer.md §3). */
  saved: boolean;
  /** E-mail of the saver (delete rights), when saved. */
  createdBy: string | null;
  /** Drawn in the scene (an empty node is drawn on demand when selected). */
  drawn: boolean;
  visible: boolean;
  /** False when a drawing step failed; null before drawing. */
  ok: boolean | null;
}

/** A new, unsaved, undrawn entry for `axis` and `location`. */
export function newSectionEntry(
  axis: SectionAxis,
  location: string,
  saved = false,
  createdBy: string | null = null,
): SectionEntry {
  const loc = location.trim().toUpperCase();
  return {
    name: sectionName(axis, loc),
    axis,
    location: loc,
    mm: null,
    saved,
    createdBy,
    drawn: false,
    visible: false,
    ok: null,
  };
}

/** The list with `entry` added, or merged into the entry of the same name (fields of `entry` win). */
export function upsertSection(
  list: readonly SectionEntry[],
  entry: Partial<SectionEntry> & { name: string },
): SectionEntry[] {
  const i = list.findIndex((s) => s.name === entry.name);
  if (i < 0) {
    if (!entry.axis || entry.location === undefined)
      throw new Error(`Section "${entry.name}" needs an axis and a location`);
    return [...list, { ...newSectionEntry(entry.axis, entry.location), ...entry }];
  }
  const out = [...list];
  out[i] = { ...out[i], ...entry };
  return out;
}

/** Merges the server's saved sections into the list: saved flags on, unknown names added (not drawn). */
export function mergeSavedSections(
  list: readonly SectionEntry[],
  saved: readonly { name: string; axis: SectionAxis; location: string; createdBy: string }[],
): SectionEntry[] {
  let out = [...list];
  for (const s of saved) {
    const existing = out.find((e) => e.name === s.name);
    out = existing
      ? upsertSection(out, { name: s.name, saved: true, createdBy: s.createdBy })
      : [...out, { ...newSectionEntry(s.axis, s.location, true, s.createdBy), name: s.name }];
  }
  return out;
}

/** The entity names of failed steps, once each, in order ('compartments, structures'). */
export function failedEntities(errors: readonly SectionStepError[]): string[] {
  return [...new Set(errors.map((e) => e.entity))];
}

/** viewer.md §8 error toast when section drawing fails. */
export function sectionFailureText(name: string, errors: readonly SectionStepError[]): string {
  return `Failed to create a section ${name} for ${failedEntities(errors).join(', ')}`;
}

/** viewer.md §8 (the trailing quote is the spec's). */
export const sectionSavedText = (name: string): string => `Section "${name}" was saved"`;
export const sectionDeletedText = (name: string): string => `Section "${name}" was deleted"`;

/** The 'Delete section' confirmation (viewer.md §4). */
export const DELETE_SECTION_TITLE = 'Delete section';
export const DELETE_SECTION_TEXT = 'This will delete the section from all the users.';

/** File name of an exported section drawing: '{model} {section}.svg' / '.dxf'. */
export function sectionExportFileName(modelName: string, section: string, format: 'svg' | 'dxf'): string {
  return `${modelName} ${section}.${format}`;
}
