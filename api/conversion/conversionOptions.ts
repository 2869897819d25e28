/**
 * What each conversion option of application.md §2 "Settings tab" (1) does to the converted model
 * (README "Conversion options"): the importer options (geometry details, healing) and the objects the
 * revision keeps (structure model, compartment model, blocks, details). Node-free.
 */
import type { ImportOptions } from '../../engine/ocx/index';
import { keepObjects } from '../../engine/model/keepObjects';
import type { ImportResult, ObjectType } from '../../engine/model/types';
import { type ConversionConfig, DEFAULT_CONVERSION_CONFIG } from '../contract/settings';

/** Object types of the compartment model (the Arrangement and its compartments). */
const COMPARTMENT_TYPES: ReadonlySet<ObjectType> = new Set(['COMPARTMENT', 'COMPARTMENT ARRANGEMENT']);
/** Object types that are details of the structure: holes, openings, cut-outs and notches. */
const DETAIL_TYPES: ReadonlySet<ObjectType> = new Set(['HOLE', 'OPENING', 'CUTOUT', 'NOTCH']);

/** A full config from a partial one (a task from before the options existed gets the defaults). */
export function conversionConfigOf(options?: Partial<ConversionConfig>): ConversionConfig {
  return { ...DEFAULT_CONVERSION_CONFIG, ...options };
}

/** The importer options that an option set asks for: holes cut (geometryDetails), repairs (geometryHealing). */
export function importOptionsOf(c: ConversionConfig): Pick<ImportOptions, 'details' | 'healing'> {
  return { details: c.geometryDetails, healing: c.geometryHealing };
}

/**
 * The imported model reduced to what the options keep: Structure model off drops every object that is not
 * part of the compartment model; Compartment model off drops the compartments and their arrangement;
 * Geometry details off drops the hole, opening, cut-out and notch objects; Blocks off drops the block
 * arrangement (no object keeps its block).
 * @throws Error 'The conversion options leave nothing of this model: ...' when no object remains.
 */
export function applyConversionOptions(result: ImportResult, c: ConversionConfig): ImportResult {
  const kept = keepObjects(
    result,
    (o) => {
      const compartment = COMPARTMENT_TYPES.has(o.type);
      if (compartment) return c.compartmentModel;
      if (!c.structureModel) return false;
      return c.geometryDetails || !DETAIL_TYPES.has(o.type);
    },
    { dropBlocks: !c.buildingBlocks },
  );
  if (result.objects.length > 0 && kept.objects.length === 0)
    throw new Error(
      `The conversion options leave nothing of this model: it has no ${c.structureModel ? 'structure' : 'compartments'} (Structure model ${on(c.structureModel)}, Compartment model ${on(c.compartmentModel)})`,
    );
  return kept;
}

const on = (b: boolean) => (b ? 'on' : 'off');
