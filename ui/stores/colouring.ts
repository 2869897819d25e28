/**
 * Colouring by quantities in the viewer (application.md §4 "Coloring", §8, §9): the chosen quantities per
 * object type, the legend, and the thickness view's material side. Every change clears the selection,
 * reads the property columns it needs once per revision (GET .../model/property-columns, cached), plans
 * the colours (ui/logic/colouringPlan.ts) and paints them through the engine in one call (paintObjects,
 * typed arrays of node ids per colour).
 * The model's colours are claimed from the appearance store (ui/stores/appearance.ts): starting the
 * revision comparison releases the colouring (its colours go back and nothing stays chosen), and
 * colouring releases the comparison. Compartments by purpose take their colours from GET
 * .../ship-model/purpose-colors; a model without compartments gives the info toast
 * 'The project doesn't have a compartment arrangement defined'. A comment snapshot stores and restores
 * the colouring (colouringView / restoreColouring).
 */
import { proxy, ref } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { ColouringView } from '../../api/contract';
import type { PaintGroup, ThicknessViewResult } from '../../engine/EngineApi';
import { getPropertyColumns } from '../api/calls';
import { getPurposeColors } from '../api/colouring';
import { stableColours, type Rgb } from '../logic/colourPalette';
import {
  COLOUR_TARGETS,
  isNoColouring,
  NO_COLOURING,
  planColouring,
  type ColourTarget,
  type ColouringSettings,
  type LegendEntry,
} from '../logic/colouringPlan';
import { appearanceStore, claimAppearance, releaseAppearance } from './appearance';
import { currentProjectStore } from './currentProject';
import { showToast } from './toasts';
import { getEngine, viewerStore } from './viewer';

/** Info toast when compartments are coloured in a model without them (application.md §8). */
export const NO_ARRANGEMENT_TOAST = "The project doesn't have a compartment arrangement defined";

/** Material side of the thickness view: a side of viewer.md §3, 'ALL', or null (not drawn). */
export type ThicknessSide = NonNullable<ColouringView['thicknessSide']>;

type Column = (number | string | null)[];

/** The colouring shown: what is chosen (settings, thicknessSide), the legend and the legend's visibility. */
export const colouringStore = proxy({
  settings: { ...NO_COLOURING } as ColouringSettings,
  thicknessSide: null as ThicknessSide | null,
  legendVisible: true,
  legend: [] as LegendEntry[],
  /** Parts of coloured types without a value for one of their quantities. */
  withoutValue: 0,
  /** What the thickness view drew, or null when it is off. */
  thickness: null as ThicknessViewResult | null,
  /** True while a change is being read and painted. */
  busy: false,
});

/** What this viewer session has read and painted (not reactive: large). */
const cache = ref({
  key: '',
  columns: new Map<string, Column>(),
  purposes: null as null | { hasArrangement: boolean; colours: Map<string, Rgb> },
  painted: new Uint32Array(0) as Uint32Array<ArrayBufferLike>,
});
let applying = 0;

/**
 * Sets the quantities of one object type (in the order given; empty: '-- No colors --'), clears the
 * selection and recolours.
 */
export function setColouringQuantities(target: ColourTarget, codes: string[]): Promise<void> {
  colouringStore.settings[target] = [...new Set(codes)];
  return changed();
}

/** Adds or removes one quantity of one type. */
export function toggleColouringQuantity(target: ColourTarget, code: string, on: boolean): Promise<void> {
  const now = colouringStore.settings[target].filter((c) => c !== code);
  return setColouringQuantities(target, on ? [...now, code] : now);
}

/** Thickness view for the material side `side` ('ALL' for every side), or null to remove it. */
export function setThicknessSide(side: ThicknessSide | null): Promise<void> {
  colouringStore.thicknessSide = side;
  return changed();
}

/** Clears every quantity and the thickness view: the model's own colours. */
export function clearColouring(): Promise<void> {
  colouringStore.settings = { ...NO_COLOURING };
  colouringStore.thicknessSide = null;
  return changed();
}

/** Shows or hides the legend panel. */
export function setLegendVisible(visible: boolean): void {
  colouringStore.legendVisible = visible;
}

/** The colouring for a saved view, or null when nothing is coloured. */
export function colouringView(): ColouringView | null {
  const s = colouringStore.settings;
  if (isNoColouring(s) && !colouringStore.thicknessSide) return null;
  return {
    compartments: [...s.compartments],
    plates: [...s.plates],
    stiffeners: [...s.stiffeners],
    brackets: [...s.brackets],
    thicknessSide: colouringStore.thicknessSide,
  };
}

/** Restores a saved view's colouring (null: the model's own colours). */
export function restoreColouring(view: ColouringView | null): Promise<void> {
  colouringStore.settings = view
    ? {
        compartments: [...view.compartments],
        plates: [...view.plates],
        stiffeners: [...view.stiffeners],
        brackets: [...view.brackets],
      }
    : { ...NO_COLOURING };
  colouringStore.thicknessSide = view?.thicknessSide ?? null;
  return changed();
}

/** Empties the choice, the legend and the thickness view state (not the engine). */
function clearChoice(): void {
  colouringStore.settings = { ...NO_COLOURING };
  colouringStore.thicknessSide = null;
  colouringStore.legend = [];
  colouringStore.withoutValue = 0;
  colouringStore.thickness = null;
  colouringStore.busy = false;
}

/** Forgets everything of the closed viewer session (the engine is gone: nothing to restore there). */
export function resetColouring(): void {
  applying++;
  clearChoice();
  cache.key = '';
  cache.columns = new Map();
  cache.purposes = null;
  cache.painted = new Uint32Array(0);
  releaseAppearance('colouring');
}

/** A change of the settings: the selection is cleared (application.md §4), then the model recoloured. */
async function changed(): Promise<void> {
  await getEngine()?.api.setSelection([]);
  await apply();
}

/** Gives the model its own colours back and forgets the choice (the appearance store's release). */
function release(): void {
  applying++;
  const painted = cache.painted;
  cache.painted = new Uint32Array(0);
  const engine = getEngine();
  if (engine) {
    if (painted.length) void engine.api.paintObjects([typeColours(painted)], null);
    void engine.api.setThicknessView(null);
  }
  clearChoice();
}

async function columnsFor(modelName: string, revision: number, codes: string[]): Promise<Map<string, Column>> {
  const key = `${modelName}\n${revision}`;
  if (cache.key !== key) {
    cache.key = key;
    cache.columns = new Map();
    cache.purposes = null;
  }
  const missing = codes.filter((c) => !cache.columns.has(c));
  if (missing.length) {
    const r = await getPropertyColumns(modelName, revision, missing);
    for (const c of missing) cache.columns.set(c, r.columns[c] ?? []);
  }
  return cache.columns;
}

async function purposesFor(modelName: string, revision: number) {
  if (!cache.purposes) {
    const r = await getPurposeColors(modelName, revision);
    cache.purposes = {
      hasArrangement: r.hasArrangement,
      colours: new Map(r.purposes.map((p) => [`PURP=${p.purpose}`, [p.color.r, p.color.g, p.color.b] as Rgb])),
    };
  }
  return cache.purposes;
}

// The thickness view leaves hidden parts out: it is drawn again when parts are hidden or shown.
subscribeKey(viewerStore, 'hiddenVersion', () => {
  if (colouringStore.thicknessSide && getEngine()) void apply();
});

/** Colourings run one after the other: each restores exactly what the one before it painted. */
let queue: Promise<void> = Promise.resolve();

function apply(): Promise<void> {
  const run = ++applying;
  queue = queue.then(
    () => applyNow(run),
    () => applyNow(run),
  );
  return queue;
}

async function applyNow(run: number): Promise<void> {
  // A newer change is queued behind this one: it paints the latest choice.
  if (run !== applying) return;
  const engine = getEngine();
  const objects = viewerStore.objects;
  const modelName = currentProjectStore.modelName;
  const revision = viewerStore.revision;
  if (!engine || !objects || !modelName || revision === null) return;
  const settings: ColouringSettings = {
    compartments: [...colouringStore.settings.compartments],
    plates: [...colouringStore.settings.plates],
    stiffeners: [...colouringStore.settings.stiffeners],
    brackets: [...colouringStore.settings.brackets],
  };
  const side = colouringStore.thicknessSide;
  if (isNoColouring(settings) && !side) {
    releaseAppearance('colouring');
    return;
  }
  colouringStore.busy = true;
  try {
    const types = objects.map((o) => o.type);
    if (settings.compartments.length > 0) {
      const has = settings.compartments.includes('PURP')
        ? (await purposesFor(modelName, revision)).hasArrangement
        : types.includes('COMPARTMENT');
      if (run !== applying) return;
      if (!has) {
        showToast('info', NO_ARRANGEMENT_TOAST);
        settings.compartments = [];
        colouringStore.settings.compartments = [];
      }
    }
    const codes = [...new Set([...COLOUR_TARGETS.flatMap((t) => settings[t.key]), ...(side ? ['PLTH', 'MSIDE'] : [])])];
    const columns = await columnsFor(modelName, revision, codes);
    const fixed = settings.compartments.includes('PURP')
      ? (await purposesFor(modelName, revision)).colours
      : new Map<string, Rgb>();
    if (run !== applying) return;
    const plan = planColouring(settings, types, Object.fromEntries(columns), fixed);
    claimAppearance('colouring', release);
    // One call: what the previous colouring painted goes back to its type colour, then the new colours.
    await engine.api.paintObjects([typeColours(cache.painted), ...paintGroups(plan)], null);
    cache.painted = plan.nodeIds;
    const thickness = side
      ? await engine.api.setThicknessView(thicknessInput(side, types, columns, plan))
      : (await engine.api.setThicknessView(null), null);
    if (appearanceStore.owner !== 'colouring') {
      // Released (e.g. the comparison started) while painting: take back what this run painted.
      cache.painted = new Uint32Array(0);
      await engine.api.paintObjects([typeColours(plan.nodeIds)], null);
      await engine.api.setThicknessView(null);
      return;
    }
    if (run !== applying) return;
    colouringStore.legend = plan.legend;
    colouringStore.withoutValue = plan.withoutValue;
    colouringStore.thickness = thickness;
  } finally {
    if (run === applying) colouringStore.busy = false;
  }
}

/** The paint that gives `nodeIds` their type colour and default opacity back. */
const typeColours = (nodeIds: Uint32Array): PaintGroup => ({ nodeIds, rgb: null, opacity: null });

/** The plan as one paint group per colour (opacity left at the default). */
function paintGroups(plan: { nodeIds: Uint32Array; rgb: Uint8Array }): PaintGroup[] {
  const byColour = new Map<number, number[]>();
  plan.nodeIds.forEach((n, k) => {
    const key = (plan.rgb[k * 3] << 16) | (plan.rgb[k * 3 + 1] << 8) | plan.rgb[k * 3 + 2];
    let list = byColour.get(key);
    if (!list) byColour.set(key, (list = []));
    list.push(n);
  });
  return [...byColour].map(([c, nodes]) => ({
    nodeIds: Uint32Array.from(nodes),
    rgb: [(c >> 16) & 255, (c >> 8) & 255, c & 255],
    opacity: null,
  }));
}

/**
 * The parts of the thickness view: plates and brackets with a thickness whose material side is `side`
 * (any side for 'ALL'), and for 'ALL' the stiffeners too, leaving out hidden parts; each in its colouring
 * colour, else in the stable colour of its material side.
 */
function thicknessInput(
  side: ThicknessSide,
  types: readonly string[],
  columns: Map<string, Column>,
  plan: { nodeIds: Uint32Array; rgb: Uint8Array },
) {
  const plth = columns.get('PLTH') ?? [];
  const mside = columns.get('MSIDE') ?? [];
  const colourAt = new Map<number, number>();
  plan.nodeIds.forEach((n, k) => colourAt.set(n, k));
  const nodes: number[] = [],
    thickness: number[] = [],
    sides: string[] = [];
  const tree = viewerStore.tree;
  for (let i = 0; i < types.length; i++) {
    const t = types[i];
    if (tree?.isHidden(i)) continue;
    if (t === 'PLATE' || t === 'BRACKET') {
      const th = plth[i],
        s = mside[i];
      if (typeof th !== 'number' || typeof s !== 'string' || (side !== 'ALL' && s !== side)) continue;
      nodes.push(i);
      thickness.push(th);
      sides.push(s);
    } else if (t === 'STIFFENER' && side === 'ALL') {
      nodes.push(i);
      thickness.push(0);
      sides.push('');
    }
  }
  const sideColours = stableColours(sides.map((s) => `MSIDE=${s || 'profile'}`));
  const rgb = new Uint8Array(nodes.length * 3);
  nodes.forEach((n, k) => {
    const at = colourAt.get(n);
    rgb.set(
      at !== undefined ? plan.rgb.subarray(at * 3, at * 3 + 3) : sideColours.get(`MSIDE=${sides[k] || 'profile'}`)!,
      k * 3,
    );
  });
  return { nodeIds: Uint32Array.from(nodes), thickness: Float32Array.from(thickness), sides, rgb };
}
