/**
 * The default object-properties config (application.md §3 "Object properties config": "Default lists exist
 * when the server returns none"): per object type the quantities an engineer reads first, in catalogue
 * codes of viewer.md §3, with the catalogue's meaning as header.
 */
import { PROPERTY_BY_NAME } from '../../engine/model/properties';
import type { ObjectPropertiesConfig, ObjectQuantity } from '../contract/settings';

const list = (...codes: string[]): ObjectQuantity[] =>
  codes.map((name) => ({ name, description: PROPERTY_BY_NAME.get(name)?.description ?? name }));

const COG = ['XCG', 'YCG', 'ZCG'];

/** A fresh copy of the defaults. */
export function defaultObjectProperties(): ObjectPropertiesConfig {
  return {
    compartmentQuantities: list('NAME', 'DES', 'PURP', 'TGH', 'VOLM', ...COG),
    mainObjectQuantities: list('NAME', 'DES', 'STYPE', 'TGH', 'W', 'AREA', ...COG),
    plateQuantities: list('NAME', 'STYPE', 'PLTH', 'MAT', 'MSIDE', 'TGH', 'W', 'AREA', ...COG),
    stiffenerQuantities: list('NAME', 'STYPE', 'PROFILE', 'MAT', 'L', 'W', ...COG),
    bracketQuantities: list('NAME', 'STYPE', 'PLTH', 'MAT', 'W', 'AREA', ...COG),
    openingQuantities: list('NAME', 'DES', 'AREA'),
    seamQuantities: list('NAME', 'DES', 'L'),
    holeQuantities: list('NAME', 'DES', 'AREA'),
    cutoutQuantities: list('NAME', 'DES', 'AREA'),
    notchQuantities: list('NAME', 'DES'),
  };
}
