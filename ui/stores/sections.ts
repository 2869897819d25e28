/**
 * 2D sections in the viewer (viewer.md §2 'Create section dialog', model tree '{axis}-sections', context
 * menu 'Clip to section'; §4 "Section drawing"; §7 ship sections; §8 toasts). Keeps the section nodes
 * (ui/logic/sections.ts SectionEntry), mirrors them into the model tree and the context menu, and runs
 * the actions: create from the dialog, draw once (a section being drawn is skipped; an empty node draws on
 * demand), save (POST), delete with confirmation (DELETE), show/hide, export SVG/DXF, clip to section.
 */
import { proxy } from 'valtio';
import type { EngineEvent, SectionAxis } from '../../engine/EngineApi';
import { evaluateFrameExpression, validateFrameExpression } from '../../engine/reference/frameSyntax';
import { deleteShipSection, getCoordinate, getShipSections, saveShipSection } from '../api/calls';
import {
  mergeSavedSections,
  newSectionEntry,
  sectionDeletedText,
  sectionExportFileName,
  sectionFailureText,
  sectionSavedText,
  upsertSection,
  type SectionEntry,
} from '../logic/sections';
import { showToast } from './toasts';
import { toolsStore } from './tools';
import { getEngine, setTreeOptions } from './viewer';
import { featuresStore, registerFeatureHandlers } from './viewerFeatures';

export const sectionsStore = proxy({
  list: [] as SectionEntry[],
  /** Model (project) name and revision of the open viewer. */
  modelName: '',
  revision: 0,
  /** Section node the tree should reveal (set after creating one). */
  reveal: null as string | null,
  /** Name of the saved section awaiting the 'Delete section' confirmation. */
  confirmDelete: null as string | null,
});

/** Names being drawn right now (a second request for one is skipped). */
const drawing = new Set<string>();

/** Resets for a new viewer session. */
export function resetSections(modelName = '', revision = 0): void {
  sectionsStore.list = [];
  sectionsStore.modelName = modelName;
  sectionsStore.revision = revision;
  sectionsStore.reveal = null;
  sectionsStore.confirmDelete = null;
  drawing.clear();
  featuresStore.sections = [];
}

/** Asks for the 'Delete section' confirmation of saved section `name`; null closes the dialog. */
export function askDeleteSection(name: string | null): void {
  sectionsStore.confirmDelete = name;
}

/** The tree has revealed the section node it was asked to. */
export function clearSectionReveal(): void {
  sectionsStore.reveal = null;
}

/** The entry named `name`, or undefined. */
export function findSection(name: string): SectionEntry | undefined {
  return sectionsStore.list.find((s) => s.name === name);
}

/** Replaces the list and mirrors it into the tree ('{axis}-sections') and the 'Clip to section' submenu. */
function commit(list: SectionEntry[]): void {
  const treeChanged =
    list.length !== sectionsStore.list.length || list.some((s, i) => s.name !== sectionsStore.list[i]?.name);
  sectionsStore.list = list;
  if (treeChanged) setTreeOptions({ sections: list.map((s) => ({ name: s.name, axis: s.axis })) });
  featuresStore.sections = list
    .filter((s) => s.drawn && s.mm !== null)
    .map((s) => ({ name: s.name, axis: s.axis, location: s.mm as number, visible: s.visible }));
}

/**
 * Evaluates a location in the frame syntax to mm along the axis: with the model's frames locally, else
 * through GET .../reference-system/coordinate. @throws Error with the spec's text when it cannot.
 */
export async function evaluateLocation(location: string): Promise<number> {
  const syntax = validateFrameExpression(location);
  if (syntax) throw new Error(syntax);
  const frames = toolsStore.frames ?? { x: [], y: [], z: [] };
  const local = evaluateFrameExpression(location, frames);
  if (local.ok) return local.coordinate;
  try {
    const r = await getCoordinate(sectionsStore.modelName, sectionsStore.revision, location.toUpperCase());
    return r.coordinate * 1000;
  } catch {
    throw new Error(local.error);
  }
}

/** Loads the saved sections (GET ship-sections) as nodes; they are drawn when selected. */
export async function loadSavedSections(): Promise<void> {
  const saved = await getShipSections(sectionsStore.modelName);
  commit(mergeSavedSections(sectionsStore.list, saved));
}

/**
 * The dialog's Create: adds the node 'X=…' under 'X-sections' and draws it once. Errors become toasts.
 */
export async function createSectionFromDialog(axis: SectionAxis, location: string): Promise<void> {
  const entry = newSectionEntry(axis, location);
  if (!findSection(entry.name)) commit(upsertSection(sectionsStore.list, entry));
  sectionsStore.reveal = entry.name;
  await drawSection(entry.name);
}

/**
 * Draws section `name` unless it is drawn or being drawn (viewer.md §4). A failed step shows 'Failed to
 * create a section {sectionName} for {entities}'. Never rejects.
 */
export async function drawSection(name: string): Promise<void> {
  const s = findSection(name);
  const api = getEngine()?.api;
  if (!s || s.drawn || drawing.has(name) || !api) return;
  drawing.add(name);
  try {
    const mm = s.mm ?? (await evaluateLocation(s.location));
    commit(upsertSection(sectionsStore.list, { name, mm }));
    const created = await api.createSection(s.axis, mm, name);
    if (created === null) return; // being drawn in the engine: skipped
    commit(upsertSection(sectionsStore.list, { name, drawn: true, visible: true, ok: created.ok }));
    if (!created.ok) showToast('error', sectionFailureText(name, created.errors));
  } catch (e) {
    showToast('error', (e as Error).message || `Failed to create a section ${name}`);
  } finally {
    drawing.delete(name);
  }
}

/** Shows or hides a drawn section. */
export async function setSectionVisible(name: string, visible: boolean): Promise<void> {
  const s = findSection(name);
  if (!s) return;
  if (!s.drawn) {
    if (visible) await drawSection(name);
    return;
  }
  commit(upsertSection(sectionsStore.list, { name, visible }));
  try {
    await getEngine()?.api.setSectionVisible(name, visible);
  } catch (e) {
    showToast('error', (e as Error).message);
  }
}

/** 'Save section' on an unsaved node: POST, then 'Section "{name}" was saved"'. */
export async function saveSection(name: string): Promise<void> {
  const s = findSection(name);
  if (!s || s.saved) return;
  const saved = await saveShipSection({
    name,
    projectName: sectionsStore.modelName,
    axis: s.axis,
    location: s.location,
  }).catch(() => null);
  if (!saved) return; // the client showed the error
  commit(upsertSection(sectionsStore.list, { name, saved: true, createdBy: saved.createdBy }));
  showToast('success', sectionSavedText(name));
}

/** Confirmed 'Delete section' of a saved node: DELETE, remove it, 'Section "{name}" was deleted"'. */
export async function deleteSection(name: string): Promise<void> {
  const s = findSection(name);
  if (!s) return;
  if (s.saved) {
    const ok = await deleteShipSection({
      name,
      projectName: sectionsStore.modelName,
      axis: s.axis,
      location: s.location,
    }).then(
      () => true,
      () => false,
    );
    if (!ok) return;
  }
  removeSection(name);
  if (s.saved) showToast('success', sectionDeletedText(name));
}

/** Removes a node (and its drawing) from this session without touching the server. */
export function removeSection(name: string): void {
  void getEngine()?.api.removeSection(name);
  commit(sectionsStore.list.filter((x) => x.name !== name));
}

/**
 * Export SVG / Export DXF: the engine's drawing (mm) downloaded as '{model} {section}.svg' / '.dxf'.
 * Draws the section first when the node is empty.
 */
export async function exportSection(name: string, format: 'svg' | 'dxf'): Promise<void> {
  await drawSection(name);
  const api = getEngine()?.api;
  if (!api || !findSection(name)?.drawn) return;
  try {
    const text = await api.exportSection(name, format);
    const type = format === 'svg' ? 'image/svg+xml' : 'application/dxf';
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = sectionExportFileName(sectionsStore.modelName, name, format);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (e) {
    showToast('error', (e as Error).message || `Export of section ${name} failed`);
  }
}

/** Applies the engine's sections-changed event: drawn / visible / ok per name. */
export function handleSectionsEvent(e: EngineEvent): void {
  if (e.type !== 'sections-changed') return;
  const byName = new Map(e.sections.map((s) => [s.name, s]));
  const list = sectionsStore.list.map((s) => {
    const d = byName.get(s.name);
    if (!d) return s.drawn && !drawing.has(s.name) ? { ...s, drawn: false, visible: false } : s;
    return { ...s, drawn: true, visible: d.visible, ok: d.ok };
  });
  commit(list);
}

/** Registers the context menu's 'Clip to section' handler (±100 mm slab, viewer.md §9). */
export function connectSections(): () => void {
  return registerFeatureHandlers({
    clipToSection: (name) => {
      const s = findSection(name);
      if (!s || s.mm === null) return;
      void getEngine()
        ?.api.clipToSection(s.axis, s.mm)
        ?.catch((e: Error) => showToast('error', e.message));
    },
  });
}
