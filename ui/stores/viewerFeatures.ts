/**
 * State of viewer features that arrive with later issues (annotations, comment markers, sections) as far
 * as the context menu of viewer.md §2 needs it: the counts behind 'Deselect N annotation(s)', 'Delete N
 * annotation(s)', 'Deselect N comment marker(s)' and the visible sections of the 'Clip to section'
 * submenu. The features fill the counts and register their handlers here; until then the counts are 0, the
 * list is empty and the menu shows none of those entries.
 */
import { proxy, ref } from 'valtio';

/** A section as the 'Clip to section' submenu lists it (viewer.md §3 "Ship section"). */
export interface MenuSection {
  name: string;
  axis: 'X' | 'Y' | 'Z';
  /** Location in mm along the axis. */
  location: number;
  visible: boolean;
}

/** Handlers the features register; each returns nothing and reports its own errors. */
export interface FeatureHandlers {
  deselectAnnotations?: () => void;
  deleteAnnotations?: () => void;
  deselectMarkers?: () => void;
  /** Clips to the slab ±100 mm around the named section (viewer.md §9). */
  clipToSection?: (name: string) => void;
}

export const featuresStore = proxy({
  /** Selected annotations (viewer.md §2 'Deselect N annotation(s)' / 'Delete N annotation(s)'). */
  selectedAnnotations: 0,
  /** Selected comment markers ('Deselect N comment marker(s)'). */
  selectedMarkers: 0,
  sections: [] as MenuSection[],
  handlers: ref({}) as FeatureHandlers,
});

/** The state the context menu reads from the features. */
export type FeaturesState = typeof featuresStore;

/** Registers a feature's handlers (merged with the others'); returns a function that removes them. */
export function registerFeatureHandlers(handlers: FeatureHandlers): () => void {
  featuresStore.handlers = ref({ ...featuresStore.handlers, ...handlers });
  return () => {
    const rest = { ...featuresStore.handlers };
    for (const k of Object.keys(handlers) as Array<keyof FeatureHandlers>) if (rest[k] === handlers[k]) delete rest[k];
    featuresStore.handlers = ref(rest);
  };
}

/** 'Section {name}' entries of the 'Clip to section' submenu: visible sections sorted by name (viewer.md §2). */
export function clipSectionEntries(sections: readonly MenuSection[]): string[] {
  return sections
    .filter((s) => s.visible)
    .map((s) => s.name)
    .sort(new Intl.Collator(undefined, { numeric: true }).compare);
}
