/**
 * The calls colouring by quantities makes (application.md §4 "Coloring", §7): the compartment purposes
 * with their colours. The property values themselves come from GET .../model/property-columns
 * (ui/api/calls.ts getPropertyColumns), one column per quantity for the whole revision.
 */
import { PurposeColorsResponseSchema } from '../../api/contract';
import { request } from './client';

/** GET /api/keelson-instance/ship-model/purpose-colors: purposes, colours (r, g, b bytes), counts. */
export const getPurposeColors = (modelName: string, revision: number) =>
  request('GET', '/api/keelson-instance/ship-model/purpose-colors', PurposeColorsResponseSchema, {
    query: { modelName, revision },
  });
