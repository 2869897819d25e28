import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OBJECT_COLOR,
  OBJECT_FLAGS,
  ObjectStateTable,
  TEXTURE_ROW,
} from '../../../engine/scene/ObjectStateTable';

describe('ObjectStateTable', () => {
  it('sizes its textures in rows of TEXTURE_ROW texels and starts visible in the default colour', () => {
    const t = new ObjectStateTable(TEXTURE_ROW + 1);
    expect(t.flagTexture.image.width).toBe(TEXTURE_ROW);
    expect(t.flagTexture.image.height).toBe(2);
    expect(t.isHidden(0)).toBe(false);
    expect(Array.from(t.colors.subarray(4, 7))).toEqual([...DEFAULT_OBJECT_COLOR]);
  });
  it('writes flags, counts changes, bumps the version and flags the texture for upload', () => {
    const t = new ObjectStateTable(10);
    const v0 = t.version,
      tv0 = t.flagTexture.version;
    expect(t.setFlag([1, 2, 2, 50, -1], OBJECT_FLAGS.hidden, true)).toBe(2);
    expect(t.isHidden(1) && t.isHidden(2) && !t.isHidden(3)).toBe(true);
    expect(t.version).toBeGreaterThan(v0);
    expect(t.flagTexture.version).toBeGreaterThan(tv0);
    expect(t.setFlag([1], OBJECT_FLAGS.hidden, true)).toBe(0);
    expect(t.setFlag([1], OBJECT_FLAGS.hidden, false)).toBe(1);
    expect(t.withFlag(OBJECT_FLAGS.hidden)).toEqual([2]);
  });
  it('replaceFlag keeps other bits and makes exactly the given ids carry the bit', () => {
    const t = new ObjectStateTable(6);
    t.setFlag([0], OBJECT_FLAGS.hidden, true);
    t.replaceFlag([0, 3], OBJECT_FLAGS.selected);
    t.replaceFlag([3, 4], OBJECT_FLAGS.selected);
    expect(t.withFlag(OBJECT_FLAGS.selected)).toEqual([3, 4]);
    expect(t.flags[0]).toBe(OBJECT_FLAGS.hidden);
    expect(t.isSelected(4)).toBe(true);
  });
  it('replaceFlag counts only real changes, also after setFlag touched the same bit', () => {
    const t = new ObjectStateTable(6);
    expect(t.replaceFlag([1, 2], OBJECT_FLAGS.selected)).toBe(2);
    expect(t.replaceFlag([2, 3], OBJECT_FLAGS.selected)).toBe(2); // 1 off, 3 on; 2 unchanged
    expect(t.replaceFlag([2, 3], OBJECT_FLAGS.selected)).toBe(0);
    t.setFlag([5], OBJECT_FLAGS.selected, true); // outside replaceFlag: the next replace scans the table
    expect(t.replaceFlag([], OBJECT_FLAGS.selected)).toBe(3);
    expect(t.withFlag(OBJECT_FLAGS.selected)).toEqual([]);
  });
  it('treats unknown ids as hidden (never pickable) and rejects a bad count', () => {
    const t = new ObjectStateTable(2);
    expect(t.isHidden(2)).toBe(true);
    expect(t.isHidden(-1)).toBe(true);
    expect(() => new ObjectStateTable(-1)).toThrow(/invalid object count/);
  });
  it('sets colours', () => {
    const t = new ObjectStateTable(3);
    t.setColor([2], [1, 2, 3]);
    expect(Array.from(t.colors.subarray(8, 12))).toEqual([1, 2, 3, 255]);
  });
});
