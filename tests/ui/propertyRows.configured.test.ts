/**
 * The properties panel follows the object-properties config (viewer.md §7 "Object properties config"):
 * configuredProperties keeps the configured quantities of the object type, in the configured order, with
 * the configured headers; other types, a mixed selection and no config leave the properties as they are.
 */
import { describe, expect, it } from 'vitest';
import { configuredProperties, type PropertyItem } from '../../ui/logic/propertyRows';
import { defaultObjectProperties } from '../../api/settings/objectPropertyDefaults';

const item = (name: string, description: string, value: number | string): PropertyItem => ({
  name,
  description,
  unit: '',
  isSummable: false,
  value,
});
const PLATE = [item('NAME', 'Name', 'P1'), item('MAT', 'Material', 'S355'), item('PLTH', 'Thickness', 0.012)];

describe('configuredProperties', () => {
  const config = {
    ...defaultObjectProperties(),
    plateQuantities: [
      { name: 'PLTH', description: 'Plate thickness' },
      { name: 'W', description: 'Weight' },
      { name: 'NAME', description: 'Plate' },
    ],
  };

  it('orders and renames by the config and leaves out what the object lacks', () => {
    expect(configuredProperties(PLATE, 'PLATE', config).map((p) => [p.name, p.description, p.value])).toEqual([
      ['PLTH', 'Plate thickness', 0.012],
      ['NAME', 'Plate', 'P1'],
    ]);
  });

  it('keeps the properties without config, for a mixed selection and for a type with an empty list', () => {
    expect(configuredProperties(PLATE, 'PLATE', null)).toEqual(PLATE);
    expect(configuredProperties(PLATE, null, config)).toEqual(PLATE);
    expect(configuredProperties(PLATE, 'PILLAR', config)).toEqual(PLATE);
    expect(configuredProperties(PLATE, 'PLATE', { ...config, plateQuantities: [] })).toEqual(PLATE);
  });

  it('the default plate list shows thickness and material under their catalogue names', () => {
    const rows = configuredProperties(PLATE, 'PLATE', defaultObjectProperties());
    expect(rows.map((p) => p.description)).toEqual(['Name', 'Thickness', 'Material']);
  });
});
