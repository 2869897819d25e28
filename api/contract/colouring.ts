/**
 * Colouring contract (application.md §4 "Coloring", §7 "Ship model ... GET /purpose-colors"; viewer.md §7):
 * - GET /api/keelson-instance/ship-model/purpose-colors?modelName&revision → PurposeColorsResponse
 * The compartment purposes of the revision with their colours (r, g, b bytes; the same colours the section
 * drawing uses, engine/section/purposeColors.ts) and how many compartments have each. `hasArrangement`
 * is false when the revision has no compartment arrangement (no compartments): the viewer then shows the
 * info toast 'The project doesn't have a compartment arrangement defined'.
 */
import * as v from 'valibot';
import { ModelQuerySchema } from './models';

/** Query of GET .../ship-model/purpose-colors (the model query: modelName, revision, viewerId). */
export const PurposeColorsQuerySchema = ModelQuerySchema;

/** One purpose: its text as the PURP property holds it (trimmed), its colour and its compartment count. */
export const PurposeColorSchema = v.object({
  purpose: v.string(),
  color: v.object({ r: v.number(), g: v.number(), b: v.number() }),
  count: v.number(),
});
export type PurposeColor = v.InferOutput<typeof PurposeColorSchema>;

/** GET .../ship-model/purpose-colors response; purposes sorted by name. */
export const PurposeColorsResponseSchema = v.object({
  hasArrangement: v.boolean(),
  purposes: v.array(PurposeColorSchema),
});
export type PurposeColorsResponse = v.InferOutput<typeof PurposeColorsResponseSchema>;

/** Most quantities one object type can be coloured by in a saved view. */
export const MAX_COLOURING_QUANTITIES = 16;

const quantityCodes = () =>
  v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(32), v.regex(/^[A-Za-z0-9_]+$/, 'Must be a property code'))),
      v.maxLength(MAX_COLOURING_QUANTITIES, `At most ${MAX_COLOURING_QUANTITIES} quantities`),
    ),
    [],
  );

/** Material sides the thickness view can be drawn for (viewer.md §3), plus 'ALL'. */
export const THICKNESS_VIEW_SIDES = ['ALL', 'IN', 'OUT', 'MID', 'AFT', 'FORE', 'SB', 'PS', 'BOT', 'TOP'] as const;

/**
 * The colouring part of a saved view (a comment snapshot restores it; application.md §4 "Coloring"):
 * the quantity codes per object type and the material side of the thickness view (null: not drawn).
 */
export const ColouringViewSchema = v.object({
  compartments: quantityCodes(),
  plates: quantityCodes(),
  stiffeners: quantityCodes(),
  brackets: quantityCodes(),
  thicknessSide: v.optional(v.nullable(v.picklist(THICKNESS_VIEW_SIDES)), null),
});
export type ColouringView = v.InferOutput<typeof ColouringViewSchema>;

/** The colouring of a saved view as the server answers it (every field present). */
export const ColouringViewOutputSchema = v.object({
  compartments: v.array(v.string()),
  plates: v.array(v.string()),
  stiffeners: v.array(v.string()),
  brackets: v.array(v.string()),
  thicknessSide: v.nullable(v.picklist(THICKNESS_VIEW_SIDES)),
});
