import { describe, expect, it } from 'vitest';
import { parseObjectType, growBox, emptyBox, isBoxValid } from '../../engine/model/types';
import { formatPropertyValue } from '../../engine/model/properties';

describe('model contract', () => {
  it('parses object types and refuses unknown codes', () => {
    expect(parseObjectType('plate')).toBe('PLATE');
    expect(() => parseObjectType('WIDGET')).toThrow('Unknown object type "WIDGET"');
  });
  it('grows a box', () => {
    const b = emptyBox();
    expect(isBoxValid(b)).toBe(false);
    growBox(b, [1, 2, 3, -1, 5, 0]);
    expect(b).toEqual([-1, 2, 0, 1, 5, 3]);
  });
  it('formats thickness in mm with one decimal (viewer.md §3 Units)', () => {
    expect(formatPropertyValue('PLTH', 0.012)).toEqual({ text: '12.0', unit: 'mm' });
    expect(formatPropertyValue('W', 1.23456)).toEqual({ text: '1.235', unit: 't' });
    expect(formatPropertyValue('MAT', 'AH36')).toEqual({ text: 'AH36', unit: '' });
  });
});
