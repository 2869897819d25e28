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
