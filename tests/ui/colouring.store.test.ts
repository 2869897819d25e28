/**
 * The colouring store against a recording engine and a stub server (application.md §4 "Coloring",
 * "Revision comparison": "Toggling object colouring and comparison colouring is mutually exclusive"):
 * a change clears the selection and paints the planned colours; the next change first gives back what
 * the previous one painted; quick successive changes end with exactly the last choice painted; the
 * thickness view follows the chosen side and the hidden parts; the
 * comparison claiming the model's colours releases the colouring.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appearanceStore, claimAppearance, releaseAppearance } from '../../ui/stores/appearance';
import {
  clearColouring,
  colouringStore,
  resetColouring,
  setColouringQuantities,
  setThicknessSide,
} from '../../ui/stores/colouring';
import { setCurrentProject } from '../../ui/stores/currentProject';
import { toastStore } from '../../ui/stores/toasts';
import { markHidden, setEngine, setObjects, setViewerRevision } from '../../ui/stores/viewer';

const TYPES = ['MAIN OBJECT', 'PLATE', 'PLATE', 'PLATE', 'STIFFENER', 'BRACKET', 'COMPARTMENT', 'COMPARTMENT'];
const COLUMNS: Record<string, (number | string | null)[]> = {
  PLTH: [null, 0.012, 0.012, 0.01, null, 0.012],
  MAT: [null, 'AH36', 'DH36', 'AH36', 'AH36', null],
  MSIDE: [null, 'TOP', 'TOP', 'UNDEFINED', null, 'PS'],
  PROFILE: [null, null, null, null, 'HP 200x10', null],
  PURP: [null, null, null, null, null, null, 'WATER BALLAST', 'VOID'],
};

/** The purpose-colors answer. */
let purposes: {
  hasArrangement: boolean;
  purposes: { purpose: string; color: { r: number; g: number; b: number }; count: number }[];
};

/** What the engine was told, in order, with the colour state it leaves. */
let calls: string[];
let colours: Map<number, string>;
const engine = {
  api: {
    setSelection: async (ids: number[]) => void calls.push(`select ${ids.join(',')}`),
    paintObjects: async (groups: { nodeIds: Uint32Array; rgb: [number, number, number] | null }[], rest: unknown) => {
      if (rest !== null) throw new Error('colouring paints only its own parts');
      for (const g of groups) {
        if (g.nodeIds.length) calls.push(`colour ${[...g.nodeIds].join(',')}${g.rgb ? '' : ' back'}`);
        for (const n of g.nodeIds) {
          if (g.rgb) colours.set(n, g.rgb.join(','));
          else colours.delete(n);
        }
      }
    },
    setThicknessView: async (input: { nodeIds: Uint32Array } | null) => {
      calls.push(input ? `thickness ${[...input.nodeIds].join(',')}` : 'thickness off');
      return input ? { drawn: input.nodeIds.length, skipped: 0 } : { drawn: 0, skipped: 0 };
    },
  },
};

beforeEach(() => {
  calls = [];
  purposes = {
    hasArrangement: true,
    purposes: [
      { purpose: 'VOID', color: { r: 189, g: 189, b: 189 }, count: 1 },
      { purpose: 'WATER BALLAST', color: { r: 76, g: 175, b: 80 }, count: 1 },
    ],
  };
  colours = new Map();
  vi.stubGlobal('fetch', async (url: string) => {
    const u = new URL(url, 'http://x');
    if (u.pathname.endsWith('/model/property-columns')) {
      const codes = u.searchParams.get('codes')!.split(',');
      calls.push(`fetch ${codes.join(',')}`);
      return Response.json({ codes, columns: Object.fromEntries(codes.map((c) => [c, COLUMNS[c] ?? []])) });
    }
    if (u.pathname.endsWith('/ship-model/purpose-colors')) {
      calls.push('fetch purposes');
      return Response.json(purposes);
    }
    return Response.json({ message: 'not found' }, { status: 404 });
  });
  setCurrentProject('SHIP', null);
  setObjects(
    'SHIP',
    TYPES.map((type, index) => ({
      index,
      id: `o${index}`,
      guid: null,
      name: `o${index}`,
      type,
      element: 'Plate',
      parent: index === 0 ? -1 : 0,
      block: null,
      bounds: null,
    })),
  );
  setViewerRevision(1);
  setEngine(engine as never);
});

afterEach(() => {
  resetColouring();
  setEngine(null);
  vi.unstubAllGlobals();
});

describe('colouring store', () => {
  it('clears the selection, reads the column once, paints and lists the legend', async () => {
    await setColouringQuantities('plates', ['PLTH']);
    expect(calls).toEqual(['select ', 'fetch PLTH', 'colour 1,2', 'colour 3', 'thickness off']);
    expect(colouringStore.legend.map((e) => [e.label, e.count])).toEqual([
      ['12.0 mm', 2],
      ['10.0 mm', 1],
    ]);
    expect(colours.get(1)).toBe(colours.get(2));
    expect(colours.get(1)).not.toBe(colours.get(3));
    expect(appearanceStore.owner).toBe('colouring');
    calls = [];
    // brackets by thickness too: PLTH is not read again; the plates painted before are given back first
    await setColouringQuantities('brackets', ['PLTH']);
    expect(calls).toEqual(['select ', 'colour 1,2,3 back', 'colour 1,2,5', 'colour 3', 'thickness off']);
    expect(colouringStore.legend[0]).toMatchObject({ label: '12.0 mm', count: 3 });
  });

  it('quick successive changes end with exactly the last choice painted', async () => {
    const a = setColouringQuantities('plates', ['MAT']);
    const b = setColouringQuantities('stiffeners', ['PROFILE']);
    const c = setColouringQuantities('plates', []);
    await Promise.all([a, b, c]);
    expect([...colours.keys()]).toEqual([4]);
    expect(colouringStore.legend.map((e) => e.label)).toEqual(['HP 200x10']);
  });

  it('the thickness view takes plates and brackets of the chosen side', async () => {
    await setThicknessSide('TOP');
    expect(calls.at(-1)).toBe('thickness 1,2');
    await setThicknessSide('ALL');
    expect(calls.at(-1)).toBe('thickness 1,2,3,4,5');
    expect(colouringStore.thickness).toEqual({ drawn: 5, skipped: 0 });
    // hiding a part draws the view again without it
    markHidden([2], true);
    await vi.waitFor(() => expect(calls.at(-1)).toBe('thickness 1,3,4,5'));
    markHidden([2], false);
    await vi.waitFor(() => expect(calls.at(-1)).toBe('thickness 1,2,3,4,5'));
    await clearColouring();
    expect(calls.at(-1)).toBe('thickness off');
    expect(appearanceStore.owner).toBeNull();
  });

  it("compartments by purpose take the purposes' own colours; without an arrangement the spec's toast", async () => {
    await setColouringQuantities('compartments', ['PURP']);
    expect(colours.get(6)).toBe('76,175,80');
    expect(colours.get(7)).toBe('189,189,189');
    expect(colouringStore.legend.map((e) => e.label).sort()).toEqual(['VOID', 'WATER BALLAST']);
    resetColouring();
    purposes = { hasArrangement: false, purposes: [] };
    await setColouringQuantities('compartments', ['PURP']);
    expect(toastStore.toasts.map((t) => `${t.kind}: ${t.text}`)).toContain(
      "info: The project doesn't have a compartment arrangement defined",
    );
    expect(colouringStore.settings.compartments).toEqual([]);
    expect(colouringStore.legend).toEqual([]);
    toastStore.toasts.splice(0);
  });

  it('the comparison claiming the colours releases the colouring', async () => {
    await setColouringQuantities('plates', ['PLTH']);
    expect(colours.size).toBe(3);
    claimAppearance('comparison', () => {});
    expect(colours.size).toBe(0);
    expect(colouringStore.settings.plates).toEqual([]);
    expect(colouringStore.legend).toEqual([]);
    expect(appearanceStore.owner).toBe('comparison');
    releaseAppearance('comparison');
  });
});
