/**
 * Colouring by quantities (application.md §4 "Coloring", §9 "Legend column order"): from the chosen
 * quantities per object type and the revision's property columns, the colour of every coloured part and
 * the legend. Per type (Compartments, Plates, Stiffeners, Brackets) one or more quantities; a part's value
 * is the combination of its bins (ui/logic/colourBins.ts), and every distinct combination is one colour
 * (ui/logic/colourPalette.ts) and one legend column with its count. A quantity chosen for several types is
 * binned over all of their parts together, so a 12 mm plate and a 12 mm bracket share a colour and a
 * column. Parts without a value for one of their quantities keep their own colour and are counted apart.
 * Pure: arrays in, typed arrays out (works for 100k parts).
 */
import type { ObjectType } from '../../engine/model/types';
import { PROPERTY_BY_NAME } from '../../engine/model/properties';
import { binQuantity } from './colourBins';
import { stableColours, type Rgb } from './colourPalette';

/** The object types one can colour (application.md §4 "Coloring"). */
export type ColourTarget = 'compartments' | 'plates' | 'stiffeners' | 'brackets';

/** The types in the menu's order, with their label and the model object types they cover. */
export const COLOUR_TARGETS: readonly { key: ColourTarget; label: string; types: readonly ObjectType[] }[] = [
  { key: 'compartments', label: 'Compartments', types: ['COMPARTMENT'] },
  { key: 'plates', label: 'Plates', types: ['PLATE'] },
  { key: 'stiffeners', label: 'Stiffeners', types: ['STIFFENER'] },
  { key: 'brackets', label: 'Brackets', types: ['BRACKET'] },
];

/** Chosen quantity codes per type (empty: '-- No colors --'). */
export type ColouringSettings = Record<ColourTarget, string[]>;

/** Settings with nothing chosen. */
export const NO_COLOURING: ColouringSettings = { compartments: [], plates: [], stiffeners: [], brackets: [] };

/** True when no type has a quantity. */
export const isNoColouring = (s: ColouringSettings): boolean => COLOUR_TARGETS.every((t) => s[t.key].length === 0);

/** One legend column: a colour with its value or range and how many parts have it. */
export interface LegendEntry {
  /** Stable key of the combination ('PLTH=12.0 mm', 'MAT=AH36 · PLTH=12.0 mm'). */
  key: string;
  /** Value or range as shown ('12.0 mm', 'AH36 · 12.0 mm'). */
  label: string;
  /** Names of the quantities ('Thickness', 'Material · Thickness'). */
  quantities: string;
  color: Rgb;
  count: number;
}

/** What the engine paints and the legend shows. */
export interface ColouringPlan {
  /** Node ids (object-table indices) to colour, ascending. */
  nodeIds: Uint32Array;
  /** sRGB bytes, three per node id. */
  rgb: Uint8Array;
  /** Legend columns, by count descending (application.md §9). */
  legend: LegendEntry[];
  /** Parts of coloured types that lack a value for one of their quantities (left in their own colour). */
  withoutValue: number;
}

type Value = number | string | null | undefined;

/** Legend columns by colour count, descending (application.md §9); equal counts by label, then key. */
export function sortLegend(entries: LegendEntry[]): LegendEntry[] {
  return entries.sort(
    (a, b) => b.count - a.count || a.label.localeCompare(b.label, 'en', { numeric: true }) || (a.key < b.key ? -1 : 1),
  );
}

/** The catalogue description of a code (the code itself when unknown). */
export const quantityName = (code: string): string => PROPERTY_BY_NAME.get(code)?.description ?? code;

/**
 * Plans the colouring.
 * @param settings chosen codes per type. @param types object type per node id.
 * @param columns property columns by code, parallel to `types` (catalogue units, null where absent).
 * @param fixedColours colours that replace the hashed ones for some keys (compartment purposes from
 *   GET .../ship-model/purpose-colors, keyed 'PURP={purpose}').
 */
export function planColouring(
  settings: ColouringSettings,
  types: readonly string[],
  columns: Readonly<Record<string, ArrayLike<Value> | undefined>>,
  fixedColours: ReadonlyMap<string, Rgb> = new Map(),
): ColouringPlan {
  const n = types.length;
  const targetOf = new Int8Array(n).fill(-1);
  COLOUR_TARGETS.forEach((t, ti) => {
    if (settings[t.key].length === 0) return;
    const set = new Set<string>(t.types);
    for (let i = 0; i < n; i++) if (set.has(types[i])) targetOf[i] = ti;
  });
  // Bin each code over the parts of every type coloured by it.
  const codes = [...new Set(COLOUR_TARGETS.flatMap((t) => settings[t.key]))];
  const binsByCode = new Map<string, { bins: { key: string; label: string }[]; binOfNode: Int32Array }>();
  for (const code of codes) {
    const using = new Set(COLOUR_TARGETS.flatMap((t, ti) => (settings[t.key].includes(code) ? [ti] : [])));
    const members: number[] = [];
    for (let i = 0; i < n; i++) if (targetOf[i] >= 0 && using.has(targetOf[i])) members.push(i);
    const q = binQuantity(code, columns[code] ?? [], members);
    const binOfNode = new Int32Array(n).fill(-1);
    members.forEach((node, k) => {
      binOfNode[node] = q.binOf[k];
    });
    binsByCode.set(code, { bins: q.bins, binOfNode });
  }
  const entries = new Map<string, LegendEntry>();
  const keyOfNode: (LegendEntry | undefined)[] = new Array(n);
  let withoutValue = 0;
  // A part's combination as a number (its bins in mixed radix), so the key text is built once per
  // combination, not once per part.
  const combos = COLOUR_TARGETS.map(() => new Map<number, LegendEntry>());
  const chosenBins = COLOUR_TARGETS.map((t) => settings[t.key].map((c) => binsByCode.get(c)!));
  for (let i = 0; i < n; i++) {
    const ti = targetOf[i];
    if (ti < 0) continue;
    const bins = chosenBins[ti];
    let combo = 0,
      missing = false;
    for (let c = 0; c < bins.length; c++) {
      const bin = bins[c].binOfNode[i];
      if (bin < 0) {
        missing = true;
        break;
      }
      combo = combo * bins[c].bins.length + bin;
    }
    if (missing) {
      withoutValue++;
      continue;
    }
    let e = combos[ti].get(combo);
    if (!e) {
      const chosen = settings[COLOUR_TARGETS[ti].key];
      const parts = bins.map((b) => b.bins[b.binOfNode[i]]);
      const key = parts.map((p) => p.key).join(' · ');
      e = entries.get(key);
      if (!e) {
        const label = parts.map((p) => p.label).join(' · ');
        e = { key, label, quantities: chosen.map(quantityName).join(' · '), color: [0, 0, 0], count: 0 };
        entries.set(key, e);
      }
      combos[ti].set(combo, e);
    }
    e.count++;
    keyOfNode[i] = e;
  }
  const colours = stableColours(entries.keys());
  for (const e of entries.values()) e.color = fixedColours.get(e.key) ?? colours.get(e.key)!;
  let m = 0;
  for (let i = 0; i < n; i++) if (keyOfNode[i]) m++;
  const nodeIds = new Uint32Array(m);
  const rgb = new Uint8Array(m * 3);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const e = keyOfNode[i];
    if (!e) continue;
    nodeIds[k] = i;
    rgb.set(e.color, k * 3);
    k++;
  }
  return { nodeIds, rgb, legend: sortLegend([...entries.values()]), withoutValue };
}
