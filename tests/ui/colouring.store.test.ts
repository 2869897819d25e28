/**
 * The colouring store against a recording engine and a stub server (application.md §4 "Coloring",
 * "Revision comparison": "Toggling object colouring and comparison colouring is mutually exclusive"):
 * a change clears the selection and paints the planned colours; the next change first gives back what
 * the previous one painted; quick successive changes end with exactly the last choice painted; the
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
import { setEngine, setObjects, setViewerRevision } from '../../ui/stores/viewer';

const TYPES = ['MAIN OBJECT', 'PLATE', 'PLATE', 'PLATE', 'STIFFENER', 'BRACKET'];
const COLUMNS: Record<string, (number | string | null)[]> = {
  PLTH: [null, 0.012, 0.012, 0.01, null, 0.012],
  MAT: [null, 'AH36', 'DH36', 'AH36', 'AH36', null],
  MSIDE: [null, 'TOP', 'TOP', 'UNDEFINED', null, 'PS'],
  PROFILE: [null, null, null, null, 'HP 200x10', null],
};

/** What the engine was told, in order, with the colour state it leaves. */
let calls: string[];
let colours: Map<number, string>;
const engine = {
  api: {
    setSelection: async (ids: number[]) => void calls.push(`select ${ids.join(',')}`),
    setObjectColorArray: async (ids: Uint32Array, rgb: Uint8Array | null) => {
      calls.push(`colour ${[...ids].join(',')}${rgb ? '' : ' back'}`);
      ids.forEach((n, k) => {
        if (rgb) colours.set(n, [...rgb.subarray(k * 3, k * 3 + 3)].join(','));
        else colours.delete(n);
      });
    },
    setThicknessView: async (input: { nodeIds: Uint32Array } | null) => {
      calls.push(input ? `thickness ${[...input.nodeIds].join(',')}` : 'thickness off');
      return input ? { drawn: input.nodeIds.length, skipped: 0 } : { drawn: 0, skipped: 0 };
    },
  },
};

beforeEach(() => {
  calls = [];
  colours = new Map();
  vi.stubGlobal('fetch', async (url: string) => {
    const u = new URL(url, 'http://x');
    if (u.pathname.endsWith('/model/property-columns')) {
      const codes = u.searchParams.get('codes')!.split(',');
      calls.push(`fetch ${codes.join(',')}`);
      return Response.json({ codes, columns: Object.fromEntries(codes.map((c) => [c, COLUMNS[c] ?? []])) });
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
    expect(calls).toEqual(['select ', 'fetch PLTH', 'colour 1,2,3', 'thickness off']);
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
    expect(calls).toEqual(['select ', 'colour 1,2,3 back', 'colour 1,2,3,5', 'thickness off']);
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
    await clearColouring();
    expect(calls.at(-1)).toBe('thickness off');
    expect(appearanceStore.owner).toBeNull();
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
