/**
 * Section contract (viewer.md §3 "Section results", "Ship section"; §7 steel / ship-model /
 * cad-components section calls and ship sections). Points leave in metres as flat [x, y, z, ...] lists.
 *
 * - GET /api/keelson-instance/steel/section?axis&coordinate&modelName&revision          → SteelSectionResponse
 * - GET /api/keelson-instance/ship-model/section?axis&coordinate&modelName&revision     → CompartmentSection[]
 * - GET /api/keelson-instance/cad-components/section?axis&coordinate&modelName&revision → CadComponentSection[]
 * - POST   /api/viewer/ship-sections  body { name?, projectName, axis, location } → ShipSection
 * - GET    /api/viewer/ship-sections?projectName                                  → ShipSection[]
 * - DELETE /api/viewer/ship-sections  body { name?, projectName, axis, location } → { success: true }
 * `coordinate` / `location` use the frame syntax of viewer.md §5 and are upper-cased; the section name
 * is axis + '=' + upper-cased location.
 */
import * as v from 'valibot';
import { requiredString, viewerIdParam } from './common';
import { revisionParam } from './models';

/** X | Y | Z, any case. */
export const SectionAxisSchema = v.pipe(
  v.string("Must be 'X', 'Y' or 'Z'"),
  v.transform((s) => s.trim().toUpperCase()),
  v.picklist(['X', 'Y', 'Z'] as const, "Must be 'X', 'Y' or 'Z'"),
);

/** Longest frame-syntax location or coordinate, characters ('#112+0.35' is 9). */
export const LOCATION_MAX_LENGTH = 100;

/** A frame-syntax location, trimmed and upper-cased, at most LOCATION_MAX_LENGTH characters. */
export const LocationSchema = v.pipe(
  v.string('Field is required'),
  v.trim(),
  v.nonEmpty('Field is required'),
  v.maxLength(LOCATION_MAX_LENGTH, `At most ${LOCATION_MAX_LENGTH} characters`),
  v.toUpperCase(),
);

export const SectionQuerySchema = v.object({
  modelName: requiredString(),
  revision: revisionParam(),
  viewerId: viewerIdParam(),
  axis: SectionAxisSchema,
  coordinate: LocationSchema,
});
export type SectionQuery = v.InferOutput<typeof SectionQuerySchema>;

export const PolylineSchema = v.object({ points: v.array(v.number()), closed: v.boolean() });

/** The spec's steel section curve (stid, curves) with Keelson's extras. */
export const SteelCurveSchema = v.object({
  stid: v.string(),
  object: v.number(),
  name: v.string(),
  type: v.string(),
  relation: v.picklist(['inSection', 'intersected', 'connectingNegative', 'connectingPositive']),
  curves: v.array(PolylineSchema),
  /** Intersected plates: length and thickness in m, label '{length mm} x {thickness mm}'. */
  length: v.optional(v.number()),
  thickness: v.optional(v.number()),
  label: v.optional(v.string()),
  centerline: v.optional(v.array(v.number())),
});

const Groups = v.object({
  inSection: v.array(SteelCurveSchema),
  intersected: v.array(SteelCurveSchema),
  connectingNegative: v.array(SteelCurveSchema),
  connectingPositive: v.array(SteelCurveSchema),
});

export const SteelSectionResponseSchema = v.object({
  name: v.string(),
  axis: v.picklist(['X', 'Y', 'Z']),
  /** Plane coordinate, m. */
  coordinate: v.number(),
  plates: Groups,
  seams: Groups,
  stiffeners: Groups,
  pillars: Groups,
  openings: Groups,
  brackets: Groups,
  holes: Groups,
  cutouts: Groups,
  notches: Groups,
  mainObjectsInSection: v.array(v.string()),
});
export type SteelSectionResponse = v.InferOutput<typeof SteelSectionResponseSchema>;

export const CompartmentSectionSchema = v.object({
  compartmentName: v.string(),
  stid: v.string(),
  curves: v.array(PolylineSchema),
  purposeColor: v.object({ r: v.number(), g: v.number(), b: v.number() }),
});
export const CompartmentSectionsResponseSchema = v.array(CompartmentSectionSchema);
export type CompartmentSectionsResponse = v.InferOutput<typeof CompartmentSectionsResponseSchema>;

export const CadComponentSectionSchema = v.object({
  componentName: v.string(),
  stid: v.string(),
  curves: v.array(PolylineSchema),
});
export const CadComponentSectionsResponseSchema = v.array(CadComponentSectionSchema);
export type CadComponentSectionsResponse = v.InferOutput<typeof CadComponentSectionsResponseSchema>;

/** POST / DELETE body of /api/viewer/ship-sections. */
export const ShipSectionBodySchema = v.object({
  name: v.optional(v.pipe(v.string(), v.maxLength(LOCATION_MAX_LENGTH + 2, 'At most 102 characters'))),
  projectName: requiredString(),
  axis: SectionAxisSchema,
  location: LocationSchema,
});
export type ShipSectionBody = v.InferOutput<typeof ShipSectionBodySchema>;

export const ShipSectionsQuerySchema = v.object({ projectName: requiredString() });

/** A saved section (viewer.md §3 "Ship section"); createdBy is the creator's e-mail (delete rights). */
export const ShipSectionSchema = v.object({
  name: v.string(),
  axis: v.picklist(['X', 'Y', 'Z']),
  location: v.string(),
  projectName: v.string(),
  createdBy: v.string(),
});
export type ShipSection = v.InferOutput<typeof ShipSectionSchema>;
export const ShipSectionsResponseSchema = v.array(ShipSectionSchema);
