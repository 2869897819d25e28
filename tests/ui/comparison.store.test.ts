import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ref } from 'valtio';
import { COMPARE_FORMAT, type CompareResponse, type ProjectRevisionInfo } from '../../api/contract';
import type { PaintGroup, PaintStyle } from '../../engine/EngineApi';
import type { EngineClient } from '../../ui/engine/EngineClient';
import { appearanceStore, claimAppearance } from '../../ui/stores/appearance';
import {
  clearComparisonCache,
  comparisonCalls,
  comparisonStore,
  initComparisonRevision,
  resetComparison,
  setComparisonRevision,
  startComparison,
  stopComparison,
  toggleComparison,
} from '../../ui/stores/comparison';
import { resetCurrentProject, setCurrentProject } from '../../ui/stores/currentProject';
import { toastStore } from '../../ui/stores/toasts';
import { resetViewer, setEngine, viewerStore } from '../../ui/stores/viewer';

const toasts = () => toastStore.toasts.map((t) => `${t.kind}: ${t.text}`);
const info = (revisions: number[], revision: number): ProjectRevisionInfo => ({
  projectInfo: { projectName: 'SHIP', projectVersion: 'v1', revisions },
  revision,
  description: '',
  url: '',
  lastUpdatedDate: '',
});

/** A comparison of `from` and `to` with the added and changed parts at the given indices. */
function response(from: number, to: number, added: number[], changed: number[]): CompareResponse {
  const mass = (revision: number) => ({ revision, weight: 0, cg: null });
  return {
    format: COMPARE_FORMAT,
    projectName: 'SHIP',
    fromRevision: from,
    toRevision: to,
    computedAt: `${from}-${to}`,
    tolerances: { thicknessM: 0.00005, lengthM: 0.0005, relative: 0.001, geometryM: 0.0005 },
    steelObjectsAdded: added.map((index) => ({
      stId: `a${index}`,
      guid: null,
      name: `A${index}`,
      type: 'PLATE',
      index,
    })),
    steelObjectsRemoved: [],
    steelObjectsChanged: changed.map((index) => ({
      stId: `c${index}`,
      guid: null,
      name: `C${index}`,
      type: 'PLATE',
      from,
      to,
      index,
      fromIndex: index,
      matchedBy: 'guid' as const,
      changedProperties: [{ name: 'thickness', code: 'PLTH', from: 0.012, to: 0.014, unit: 'm' }],
      geometryChanged: false,
    })),
    ambiguous: [],
    summary: { perType: [], before: mass(from), after: mass(to) },
  };
}

/** Engine calls the store made, in order. */
let calls: string[];
let paints: { groups: PaintGroup[]; rest: PaintStyle | null }[];
let fetched: string[];
let usable: boolean;
let failFetch: boolean;

beforeEach(() => {
  calls = [];
  paints = [];
  fetched = [];
  usable = true;
  failFetch = false;
  const api = {
    setSelection: async (ids: number[]) => void calls.push(`select ${ids.join(',')}`),
    paintObjects: async (groups: PaintGroup[], rest: PaintStyle | null) => {
      calls.push('paint');
      paints.push({ groups, rest });
    },
    showComparisonGhosts: async (url: string, _headers: unknown, ids: Uint32Array) => {
      calls.push(`ghosts ${url} ${Array.from(ids).join(',')}`);
      return ids.length;
    },
    clearComparisonGhosts: async () => void calls.push('clear ghosts'),
  };
  setEngine({ api } as unknown as EngineClient);
  comparisonCalls.getComparison = async (_project, from, to) => {
    fetched.push(`${from}-${to}`);
    if (failFetch) throw new Error('Could not fetch comparison data');
    return response(from, to, [from + 5], [to + 5]);
  };
  comparisonCalls.sceneUrl = (project, revision) => `/${project}/${revision}.sc`;
  comparisonCalls.checkComparisonData = async (body) => ({
    format: COMPARE_FORMAT,
    cached: true,
    computing: false,
    computedAt: body.computedAt ?? null,
    usable,
  });
  setCurrentProject('SHIP', info([1, 2, 3], 3));
  viewerStore.revision = 3;
  viewerStore.phase = 'ready';
  viewerStore.objects = ref(Array.from({ length: 20 }, () => ({}))) as never;
});

afterEach(() => {
  resetComparison();
  clearComparisonCache();
  setEngine(null);
  resetViewer();
  resetCurrentProject();
  toastStore.toasts.splice(0);
});

describe('comparison store (application.md §4 "Revision comparison")', () => {
  it('starts: clears the selection, fetches, paints added / changed and dims the rest; stops: restores', async () => {
    initComparisonRevision();
    expect(comparisonStore.fromRevision).toBe(2);
    const started = startComparison();
    expect(comparisonStore.status).toBe('busy');
    await started;
    expect(comparisonStore.status).toBe('on');
    expect(calls).toEqual(['select ', 'paint']);
    expect(fetched).toEqual(['2-3']);
    expect(paints[0].groups.map((g) => Array.from(g.nodeIds))).toEqual([[7], [8]]);
    expect(paints[0].rest).toEqual({ rgb: null, opacity: 0.3 });
    expect(appearanceStore.owner).toBe('comparison');
    expect(comparisonStore.shown?.byIndex.get(8)?.kind).toBe('changed');
    await toggleComparison();
    expect(comparisonStore.status).toBe('off');
    expect(paints[1]).toEqual({ groups: [], rest: { rgb: null, opacity: null } });
    expect(appearanceStore.owner).toBeNull();
  });

  it('keeps the data per pair while checkData says it is usable, refetches when it is stale', async () => {
    initComparisonRevision();
    await startComparison();
    stopComparison();
    await startComparison();
    expect(fetched).toEqual(['2-3']);
    stopComparison();
    usable = false;
    await startComparison();
    expect(fetched).toEqual(['2-3', '2-3']);
  });

  it('recomputes when the earlier revision changes while comparing', async () => {
    initComparisonRevision();
    await startComparison();
    await setComparisonRevision(1);
    expect(comparisonStore.status).toBe('on');
    expect(fetched).toEqual(['2-3', '1-3']);
    expect(paints.map((p) => p.groups.map((g) => Array.from(g.nodeIds)))).toEqual([[[7], [8]], [], [[6], [8]]]);
  });

  it("refuses with 'Model comparison not available' without an earlier revision or model data", async () => {
    await startComparison(); // nothing chosen
    expect(toasts()).toEqual(['info: Model comparison not available']);
    initComparisonRevision();
    viewerStore.objects = null;
    await startComparison();
    expect(comparisonStore.status).toBe('off');
    expect(calls).toEqual([]);
    setCurrentProject('SHIP', info([1], 1));
    viewerStore.revision = 1;
    comparisonStore.fromRevision = null;
    initComparisonRevision();
    expect(comparisonStore.fromRevision).toBeNull();
  });

  it('gives way to colouring (mutual exclusion) and ends off when the fetch fails', async () => {
    initComparisonRevision();
    await startComparison();
    claimAppearance('colouring', () => {});
    expect(comparisonStore.status).toBe('off');
    expect(paints.at(-1)).toEqual({ groups: [], rest: { rgb: null, opacity: null } });
    failFetch = true;
    clearComparisonCache();
    await startComparison();
    expect(comparisonStore.status).toBe('off');
    expect(appearanceStore.owner).toBe('colouring');
  });

  it('draws the removed parts as ghosts from the earlier revision and clears them on stop', async () => {
    comparisonCalls.getComparison = async (_project, from, to) => ({
      ...response(from, to, [], []),
      steelObjectsRemoved: [4, 9].map((fromIndex) => ({
        stId: `r${fromIndex}`,
        guid: null,
        name: `R${fromIndex}`,
        type: 'STIFFENER' as const,
        fromIndex,
      })),
    });
    initComparisonRevision();
    await startComparison();
    await Promise.resolve();
    expect(calls).toContain('ghosts /SHIP/2.sc 4,9');
    await new Promise((r) => setTimeout(r, 0));
    expect(comparisonStore.ghosts).toBe(2);
    stopComparison();
    expect(calls.at(-1)).toBe('clear ghosts');
    expect(comparisonStore.ghosts).toBeNull();
  });

  it("answers 'Scene model not found' without an engine", async () => {
    initComparisonRevision();
    setEngine(null);
    await startComparison();
    expect(toasts()).toEqual(['error: Scene model not found']);
  });
});
