/**
 * Which quantities the colouring menu offers per object type (application.md §4 "Coloring": "from the
 * object-properties configuration"; viewer.md §7 "Object properties config"). One function is the
 * source: until the configuration call GET /api/viewer/settings/object-properties is available it offers
 * the catalogue codes each type carries (engine/model/properties.ts), in this order.
 */
import { PROPERTY_BY_NAME } from '../../engine/model/properties';
import type { ColourTarget } from './colouringPlan';

/** A quantity one can colour by: catalogue code and its name. */
export interface ColouringQuantity {
  code: string;
  description: string;
}

/** Catalogue codes offered per type. */
const CATALOGUE_CODES: Record<ColourTarget, string[]> = {
  compartments: ['PURP', 'TGH', 'VOLM', 'DES'],
  plates: ['PLTH', 'MAT', 'STYPE', 'MSIDE', 'TGH', 'W', 'AREA'],
  stiffeners: ['PROFILE', 'MAT', 'STYPE', 'W', 'L'],
  brackets: ['PLTH', 'MAT', 'MSIDE', 'W', 'AREA'],
};

/** The quantities per type (the one place to switch to the object-properties configuration). */
export async function loadColouringQuantities(): Promise<Record<ColourTarget, ColouringQuantity[]>> {
  const of = (codes: string[]) =>
    codes.map((code) => ({ code, description: PROPERTY_BY_NAME.get(code)?.description ?? code }));
  return {
    compartments: of(CATALOGUE_CODES.compartments),
    plates: of(CATALOGUE_CODES.plates),
    stiffeners: of(CATALOGUE_CODES.stiffeners),
    brackets: of(CATALOGUE_CODES.brackets),
  };
}
