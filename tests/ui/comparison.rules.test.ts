import { describe, expect, it } from 'vitest';
import type { ChangedProperty, CompareResponse } from '../../api/contract';
import {
  ADDED_RGB,
  CHANGED_RGB,
  UNCHANGED_OPACITY,
  changeText,
  changesByIndex,
  comparisonAvailable,
  comparisonPaint,
  defaultFromRevision,
  formatCompareValue,
  revisionChoices,
} from '../../ui/logic/comparison';

const change = (over: Partial<ChangedProperty>): ChangedProperty => ({
  name: 'thickness',
  code: 'PLTH',
  from: null,
  to: null,
  unit: 'm',
  ...over,
});

describe('earlier-revision selector (application.md §4, §9 "Revision list order")', () => {
  it('lists revisions newest first and disables those at or above the current one', () => {
    expect(revisionChoices([1, 3, 2, 4], 3)).toEqual([
      { revision: 4, disabled: true },
      { revision: 3, disabled: true },
      { revision: 2, disabled: false },
      { revision: 1, disabled: false },
    ]);
    expect(revisionChoices([1, 2], null).every((c) => c.disabled)).toBe(true);
  });
  it('preselects the newest revision below the current one, none for the first revision', () => {
    expect(defaultFromRevision([1, 2, 3, 4], 3)).toBe(2);
    expect(defaultFromRevision([1, 2], 1)).toBeNull();
  });
});

describe('availability (§4)', () => {
  const ok = { fromRevision: 1, currentRevision: 2, busy: false, modelLoaded: true };
  it('needs an earlier revision chosen, a current revision after the first, not busy, model data loaded', () => {
    expect(comparisonAvailable(ok)).toBe(true);
    expect(comparisonAvailable({ ...ok, fromRevision: null })).toBe(false);
    expect(comparisonAvailable({ ...ok, fromRevision: 2 })).toBe(false);
    expect(comparisonAvailable({ ...ok, fromRevision: 0, currentRevision: 1 })).toBe(false);
    expect(comparisonAvailable({ ...ok, busy: true })).toBe(false);
    expect(comparisonAvailable({ ...ok, modelLoaded: false })).toBe(false);
  });
});

describe('painting (§4 "Starting", §9 "Comparison")', () => {
  const data = {
    steelObjectsAdded: [{ index: 7 }, { index: 99 }],
    steelObjectsChanged: [{ index: 3 }, { index: 5 }],
  } as unknown as CompareResponse;
  it('colours added parts light blue and changed green, opaque, and dims the rest to 0.3', () => {
    const { groups, rest } = comparisonPaint(data, 10);
    expect(groups.map((g) => [Array.from(g.nodeIds), g.rgb, g.opacity])).toEqual([
      [[7], ADDED_RGB, 1],
      [[3, 5], CHANGED_RGB, 1],
    ]);
    expect(rest).toEqual({ rgb: null, opacity: UNCHANGED_OPACITY });
    expect([ADDED_RGB, CHANGED_RGB, UNCHANGED_OPACITY]).toEqual([[0, 204, 255], [0, 255, 0], 0.3]);
  });
  it('finds a part’s change by its index in the open revision', () => {
    const m = changesByIndex(data);
    expect(m.get(7)?.kind).toBe('added');
    expect(m.get(3)?.kind).toBe('changed');
    expect(m.get(4)).toBeUndefined();
  });
});

describe('comparison column texts', () => {
  it('reads thickness in mm through the catalogue, materials as text, one unit at the end', () => {
    expect(changeText(change({ from: 0.012, to: 0.014 }))).toBe('12.0 → 14.0 mm');
    expect(changeText(change({ name: 'material', code: 'MAT', unit: '', from: 'AH36', to: 'DH36' }))).toBe(
      'AH36 → DH36',
    );
    expect(changeText(change({ from: null, to: 0.01 }))).toBe('— → 10.0 mm');
  });
  it('writes points and boxes in millimetres', () => {
    expect(formatCompareValue(change({ name: 'cg', code: '', unit: 'm' }), [1.5, -2, 0.0254])).toBe(
      '(1500, -2000, 25) mm',
    );
  });
});
