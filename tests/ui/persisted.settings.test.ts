/**
 * Snap and annotation settings persisted as JSON under a store name (viewer.md §3 defaults, §9 local storage).
 */
import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_KINDS,
  DEFAULT_ANNOTATION_SETTINGS,
  DEFAULT_SNAP_OPTIONS,
  SNAP_OPTIONS,
  SNAP_SETTINGS_STORE,
  loadPersisted,
  savePersisted,
  textHeightError,
} from '../../ui/logic/persisted';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, String(v)),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
  };
}

describe('persisted settings', () => {
  it('has the spec defaults: four snap options on; text height 200 and kinds off', () => {
    expect(SNAP_OPTIONS.map((o) => o.label)).toEqual([
      'End point',
      'Intersection point',
      'Polygon point',
      'Nearest point',
    ]);
    expect(Object.values(DEFAULT_SNAP_OPTIONS)).toEqual([true, true, true, true]);
    expect(ANNOTATION_KINDS.map((k) => k.key)).toEqual([
      'compartments',
      'plates',
      'parameters',
      'stiffeners',
      'openings',
      'brackets',
    ]);
    expect(DEFAULT_ANNOTATION_SETTINGS.textHeight).toBe(200);
    expect(ANNOTATION_KINDS.every((k) => DEFAULT_ANNOTATION_SETTINGS[k.key] === false)).toBe(true);
  });

  it('round-trips through storage and ignores fields of the wrong type', () => {
    const s = memoryStorage();
    expect(loadPersisted(s, SNAP_SETTINGS_STORE, DEFAULT_SNAP_OPTIONS)).toEqual(DEFAULT_SNAP_OPTIONS);
    savePersisted(s, SNAP_SETTINGS_STORE, { ...DEFAULT_SNAP_OPTIONS, polygonPoint: false });
    expect(JSON.parse(s.getItem(SNAP_SETTINGS_STORE)!)).toMatchObject({ polygonPoint: false });
    expect(loadPersisted(s, SNAP_SETTINGS_STORE, DEFAULT_SNAP_OPTIONS).polygonPoint).toBe(false);
    s.setItem('x', JSON.stringify({ endPoint: 'no', nearestPoint: false, extra: 1 }));
    expect(loadPersisted(s, 'x', DEFAULT_SNAP_OPTIONS)).toEqual({ ...DEFAULT_SNAP_OPTIONS, nearestPoint: false });
    s.setItem('y', '{broken');
    expect(loadPersisted(s, 'y', DEFAULT_SNAP_OPTIONS)).toEqual(DEFAULT_SNAP_OPTIONS);
    expect(loadPersisted(null, 'y', DEFAULT_ANNOTATION_SETTINGS)).toEqual(DEFAULT_ANNOTATION_SETTINGS);
  });

  it('validates the text height', () => {
    expect(textHeightError('250')).toBeNull();
    expect(textHeightError('')).toMatch(/number/);
    expect(textHeightError('abc')).toMatch(/number/);
    expect(textHeightError('0')).toMatch(/greater than 0/);
  });
});
