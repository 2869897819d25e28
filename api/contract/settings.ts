/**
 * Admin settings contract: application.md §2 "Settings tab" (1) and (2), §3 "Conversion config" and
 * "Object properties config", §4 "Other admin state", §7 Admin; viewer.md §7 "Object properties config".
 * - GET   /api/{instance}/viewer/config/conversion            → ConversionConfig          (admin:view)
 * - PATCH /api/{instance}/viewer/config/conversion  body ConversionConfigPatch → ConversionConfig (admin:view)
 * - GET   /api/viewer/settings/object-properties              → ObjectPropertiesConfig    (any signed-in user)
 * - POST  /api/viewer/settings/object-properties  body ObjectPropertiesConfig → ObjectPropertiesConfig (admin:view)
 */
import * as v from 'valibot';

/** The options of a project conversion, in the order the Settings tab lists them. */
export const CONVERSION_OPTIONS = [
  'structureModel',
  'compartmentModel',
  'cadComponents',
  'buildingBlocks',
  'geometryDetails',
  'geometryHealing',
  'screenshot',
] as const;
export type ConversionOption = (typeof CONVERSION_OPTIONS)[number];

/** The conversion config (application.md §3 "Conversion config"): which parts the next conversion produces. */
export const ConversionConfigSchema = v.object({
  structureModel: v.boolean(),
  compartmentModel: v.boolean(),
  cadComponents: v.boolean(),
  buildingBlocks: v.boolean(),
  geometryDetails: v.boolean(),
  geometryHealing: v.boolean(),
  screenshot: v.boolean(),
});
export type ConversionConfig = v.InferOutput<typeof ConversionConfigSchema>;

/**
 * The config a new server starts with: everything the importer did before the options existed (structure,
 * compartments, blocks, holes, its repair steps, the thumbnail); CAD components off (no CAD files uploaded).
 */
export const DEFAULT_CONVERSION_CONFIG: ConversionConfig = {
  structureModel: true,
  compartmentModel: true,
  cadComponents: false,
  buildingBlocks: true,
  geometryDetails: true,
  geometryHealing: true,
  screenshot: true,
};

/** The message when a change would leave neither main option on (the Settings tab locks the last one). */
export const MAIN_OPTION_LOCKED = 'Structure model or Compartment model must stay on';

/** PATCH body: the options to change (the others keep their value); at least one. */
export const ConversionConfigPatchSchema = v.pipe(
  v.strictObject({
    structureModel: v.optional(v.boolean()),
    compartmentModel: v.optional(v.boolean()),
    cadComponents: v.optional(v.boolean()),
    buildingBlocks: v.optional(v.boolean()),
    geometryDetails: v.optional(v.boolean()),
    geometryHealing: v.optional(v.boolean()),
    screenshot: v.optional(v.boolean()),
  }),
  v.check((p) => Object.keys(p).length > 0, 'Name at least one option'),
);
export type ConversionConfigPatch = v.InferOutput<typeof ConversionConfigPatchSchema>;

/** Object-properties lists (application.md §3 "Object properties config"), one per object type. */
export const OBJECT_PROPERTY_SETS = [
  'compartmentQuantities',
  'mainObjectQuantities',
  'plateQuantities',
  'stiffenerQuantities',
  'bracketQuantities',
  'openingQuantities',
  'seamQuantities',
  'holeQuantities',
  'cutoutQuantities',
  'notchQuantities',
] as const;
export type ObjectPropertySet = (typeof OBJECT_PROPERTY_SETS)[number];

/** Most quantities one list may hold. */
export const MAX_QUANTITIES_PER_SET = 40;
/** Longest header text, characters. */
export const MAX_QUANTITY_HEADER = 80;

/**
 * Qualifier letters of a quantity (application.md §3: "M, S, B, T, O, P and H ... O for openings, H for
 * ignoring holes, F for flanges only"), with what each asks of the quantity.
 */
export const QUANTITY_QUALIFIERS: Readonly<Record<string, string>> = {
  M: 'Main objects',
  S: 'Stiffeners',
  B: 'Brackets',
  T: 'Total',
  O: 'Openings',
  P: 'Plates',
  H: 'Ignoring holes',
  F: 'Flanges only',
};

/**
 * One configured quantity: `name` a property catalogue code (viewer.md §3, e.g. 'PLTH'), `description`
 * the header the properties panel shows for it, `qualifiers` its qualifier letters. The server refuses
 * a code outside the catalogue; a row with an empty name is dropped on save.
 */
export const ObjectQuantitySchema = v.object({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(16, 'At most 16 characters'),
    v.regex(/^[A-Z0-9_]*$/, 'A catalogue code'),
  ),
  description: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(MAX_QUANTITY_HEADER, `At most ${MAX_QUANTITY_HEADER} characters`),
  ),
  qualifiers: v.optional(
    v.pipe(
      v.array(v.picklist(Object.keys(QUANTITY_QUALIFIERS) as [string, ...string[]])),
      v.maxLength(8, 'At most 8 qualifiers'),
    ),
  ),
});
export type ObjectQuantity = v.InferOutput<typeof ObjectQuantitySchema>;

const quantityList = () =>
  v.pipe(
    v.array(ObjectQuantitySchema),
    v.maxLength(MAX_QUANTITIES_PER_SET, `At most ${MAX_QUANTITIES_PER_SET} quantities`),
  );

/** The object-properties config: a list of quantities per object type. */
export const ObjectPropertiesConfigSchema = v.object({
  compartmentQuantities: quantityList(),
  mainObjectQuantities: quantityList(),
  plateQuantities: quantityList(),
  stiffenerQuantities: quantityList(),
  bracketQuantities: quantityList(),
  openingQuantities: quantityList(),
  seamQuantities: quantityList(),
  holeQuantities: quantityList(),
  cutoutQuantities: quantityList(),
  notchQuantities: quantityList(),
});
export type ObjectPropertiesConfig = v.InferOutput<typeof ObjectPropertiesConfigSchema>;

/** The list of an object type (viewer.md §3 type names), or undefined for types without one. */
export const PROPERTY_SET_OF_TYPE: Readonly<Record<string, ObjectPropertySet>> = {
  COMPARTMENT: 'compartmentQuantities',
  'MAIN OBJECT': 'mainObjectQuantities',
  PLATE: 'plateQuantities',
  STIFFENER: 'stiffenerQuantities',
  BRACKET: 'bracketQuantities',
  OPENING: 'openingQuantities',
  SEAM: 'seamQuantities',
  HOLE: 'holeQuantities',
  CUTOUT: 'cutoutQuantities',
  NOTCH: 'notchQuantities',
};
