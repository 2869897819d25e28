/** MassSum: weights summed; the centre of gravity weighted by the parts that have a positive weight and a centre. */
import { describe, expect, it } from 'vitest';
import { MassSum } from '../../../engine/model/massSum';

describe('MassSum', () => {
  it('weights the centre by the parts with a centre and counts every weight', () => {
    const m = new MassSum();
    m.add(2, 0, 0, 0);
    m.add(1, 3, 6, -3);
    m.add(5, null, null, null); // weight only
    m.add(0, 100, 100, 100); // no weight: no pull on the centre
    expect(m.weight).toBe(8);
    expect(m.cog()).toEqual({ x: 1, y: 2, z: -1 });
  });

  it('has no centre without a weighted part that has one', () => {
    const m = new MassSum();
    m.add(4, null, 1, 1);
    expect(m.weight).toBe(4);
    expect(m.cog()).toBeNull();
  });
});
