/**
 * Settings that persist in localStorage as JSON under a store name (viewer.md §9 "Local storage: store
 * state persists as JSON under a store name"): snap settings and annotation settings. Pure over a Storage.
 */

/** localStorage names. */
export const SNAP_SETTINGS_STORE = 'keelson.snapSettings';
export const ANNOTATION_SETTINGS_STORE = 'keelson.annotationSettings';

/**
 * Reads `name` from `storage` and keeps only the fields of `defaults` with the same type; anything
 * missing, of another type or unreadable falls back to the default.
 */
export function loadPersisted<T extends object>(
  storage: Pick<Storage, 'getItem'> | null,
  name: string,
  defaults: T,
): T {
  const out = { ...defaults };
  let raw: unknown = null;
  try {
    const text = storage?.getItem(name);
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  if (!raw || typeof raw !== 'object') return out;
  for (const k of Object.keys(defaults) as Array<keyof T>) {
    const v = (raw as Record<string, unknown>)[k as string];
    if (typeof v === typeof defaults[k] && (typeof v !== 'number' || Number.isFinite(v))) out[k] = v as T[keyof T];
  }
  return out;
}

/** Writes `value` under `name` (ignores a full or unavailable storage). */
export function savePersisted(storage: Pick<Storage, 'setItem'> | null, name: string, value: object): void {
  try {
    storage?.setItem(name, JSON.stringify(value));
  } catch {
    /* storage full or blocked: the setting lives for this session only */
  }
}

/** Snap options of the Snap settings menu (viewer.md §2, §3) in the spec's order. */
export const SNAP_OPTIONS = [
  { key: 'endPoint', label: 'End point' },
  { key: 'intersectionPoint', label: 'Intersection point' },
  { key: 'polygonPoint', label: 'Polygon point' },
  { key: 'nearestPoint', label: 'Nearest point' },
] as const;

/** The four snap options, all on by default (viewer.md §3). */
export interface SnapOptions {
  endPoint: boolean;
  intersectionPoint: boolean;
  polygonPoint: boolean;
  nearestPoint: boolean;
}
export const DEFAULT_SNAP_OPTIONS: Readonly<SnapOptions> = {
  endPoint: true,
  intersectionPoint: true,
  polygonPoint: true,
  nearestPoint: true,
};

/** Annotation kinds of the Annotation settings (viewer.md §3), default off. */
export const ANNOTATION_KINDS = [
  { key: 'compartments', label: 'Compartments' },
  { key: 'plates', label: 'Plates' },
  { key: 'parameters', label: 'Parameters' },
  { key: 'stiffeners', label: 'Stiffeners' },
  { key: 'openings', label: 'Openings' },
  { key: 'brackets', label: 'Brackets' },
] as const;

/** Annotation settings (engine/EngineApi.ts AnnotationSettings): text height mm (default 200), kinds off. */
export const DEFAULT_ANNOTATION_SETTINGS = {
  textHeight: 200,
  compartments: false,
  plates: false,
  parameters: false,
  stiffeners: false,
  openings: false,
  brackets: false,
} as const;

/** Validates a text height entry (mm): a finite number > 0, else an error text. */
export function textHeightError(input: string): string | null {
  const n = Number(input.trim());
  if (input.trim() === '' || !Number.isFinite(n)) return 'Text height must be a number (mm)';
  if (n <= 0) return 'Text height must be greater than 0 mm';
  return null;
}
