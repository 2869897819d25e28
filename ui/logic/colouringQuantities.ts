/**
 * Which quantities the colouring menu offers per object type (application.md §4 "Coloring": "from the
 * object-properties configuration"; viewer.md §7 "Object properties config"): the compartment, plate,
 * stiffener and bracket lists of GET /api/viewer/settings/object-properties, with the administrator's
 * headers, less the identity codes (a colour per part tells nothing). Until the configuration is read the
 * catalogue's codes for each type are offered.
 */
import type { ObjectPropertiesConfig } from '../../api/contract';
import { PROPERTY_BY_NAME } from '../../engine/model/properties';
import type { ColourTarget } from './colouringPlan';

/** A quantity one can colour by: catalogue code and its header. */
export interface ColouringQuantity {
  code: string;
  description: string;
}

/** Codes that name a single part; never offered. */
const IDENTITY_CODES = new Set(['NAME', 'STID', 'GUID', 'PART']);

/** Catalogue codes offered per type while the configuration is not read. */
const CATALOGUE_CODES: Record<ColourTarget, string[]> = {
  compartments: ['PURP', 'TGH', 'VOLM', 'DES'],
  plates: ['PLTH', 'MAT', 'STYPE', 'MSIDE', 'TGH', 'W', 'AREA'],
  stiffeners: ['PROFILE', 'MAT', 'STYPE', 'W', 'L'],
  brackets: ['PLTH', 'MAT', 'MSIDE', 'W', 'AREA'],
};

/** The configuration's list of each type. */
const CONFIG_LISTS: Record<ColourTarget, keyof ObjectPropertiesConfig> = {
  compartments: 'compartmentQuantities',
  plates: 'plateQuantities',
  stiffeners: 'stiffenerQuantities',
  brackets: 'bracketQuantities',
};

/** The quantities per type from `config` (null: the catalogue's), each code once, identity codes left out. */
export function colouringQuantities(config: ObjectPropertiesConfig | null): Record<ColourTarget, ColouringQuantity[]> {
  const of = (target: ColourTarget): ColouringQuantity[] => {
    const rows = config
      ? config[CONFIG_LISTS[target]].map((q) => ({ code: q.name, description: q.description }))
      : CATALOGUE_CODES[target].map((code) => ({ code, description: '' }));
    const seen = new Set<string>();
    return rows.flatMap((r) => {
      if (!r.code || IDENTITY_CODES.has(r.code) || seen.has(r.code)) return [];
      seen.add(r.code);
      return [{ code: r.code, description: r.description || PROPERTY_BY_NAME.get(r.code)?.description || r.code }];
    });
  };
  return {
    compartments: of('compartments'),
    plates: of('plates'),
    stiffeners: of('stiffeners'),
    brackets: of('brackets'),
  };
}
