/**
 * Revision comparison contract (application.md §4 "Revision comparison", §3 "Comparison data", §7 compare
 * calls; viewer.md §3 "Steel comparison record", §7 "Comparison").
 *
 * - GET  /api/viewer/compare?projectName&fromRevision&toRevision → CompareResponse
 *   400 when fromRevision ≥ toRevision; 404 'Revision N of project X not found' for an unknown revision
 *   (and, as for every project call, for a project the user may not see).
 * - POST /api/viewer/compare/checkData  body CheckCompareDataBody → CheckCompareDataResponse: whether the
 *   server holds a computed comparison of the pair that is still current (neither revision replaced since),
 *   and whether the client's cached copy (of `format`) is still usable.
 * - GET  /api/viewer/compare/comment-changes?projectName&revision → CommentChangesResponse: the comment
 *   threads of the project whose referred objects changed or disappeared in a revision after the thread's
 *   own, up to `revision` (the comments panel's "changed in rev. N").
 *
 * Units: the API's metres, tonnes and m² (lengths, thickness, coordinates in m; weight in t; area in m²).
 * Parts are matched by OCX GUID, parts without one by name and type; several candidates with the same name
 * and type are reported as ambiguous, never guessed.
 */
import * as v from 'valibot';
import { PROJECT_NAME_MAX_LENGTH, intParam, requiredString } from './common';

/**
 * Version of the comparison data's shape and rules; a client holding data of another format refetches
 * (application.md §4 "fetches comparison data if not cached or in the wrong format").
 */
export const COMPARE_FORMAT = 'keelson-compare-1';

const projectNameField = () => requiredString('Field is required', PROJECT_NAME_MAX_LENGTH);

/** GET /api/viewer/compare query; fromRevision must be below toRevision (400 on fromRevision). */
export const CompareQuerySchema = v.pipe(
  v.object({
    projectName: projectNameField(),
    fromRevision: intParam(),
    toRevision: intParam(),
  }),
  v.forward(
    v.check((q) => q.fromRevision < q.toRevision, 'Must be below toRevision'),
    ['fromRevision'],
  ),
);
export type CompareQuery = v.InferOutput<typeof CompareQuerySchema>;

/** Part types the steel comparison record covers (viewer.md §3). */
export const COMPARED_TYPES = ['PLATE', 'STIFFENER', 'BRACKET'] as const;
export type ComparedType = (typeof COMPARED_TYPES)[number];

/** Names of the compared properties (viewer.md §3 "Steel comparison record"). */
export const COMPARED_PROPERTY_NAMES = [
  'structureType',
  'thickness',
  'material',
  'profile',
  'weight',
  'area',
  'length',
  'cg',
  'boundingBox',
] as const;
export type ComparedPropertyName = (typeof COMPARED_PROPERTY_NAMES)[number];

/** Compared properties per part type, in the spec's order (viewer.md §3). */
export const COMPARED_PROPERTIES: Readonly<Record<ComparedType, readonly ComparedPropertyName[]>> = {
  PLATE: ['structureType', 'thickness', 'material', 'weight', 'area', 'cg', 'boundingBox'],
  STIFFENER: ['profile', 'material', 'weight', 'length', 'cg', 'boundingBox'],
  BRACKET: ['profile', 'thickness', 'material', 'weight', 'area', 'cg', 'boundingBox'],
};

/**
 * A compared value: text, a number (m, t, m²), a point [x, y, z] in m (cg), a box [minX, minY, minZ, maxX,
 * maxY, maxZ] in m (boundingBox), or null when the revision has no value.
 */
export const CompareValueSchema = v.nullable(v.union([v.string(), v.number(), v.array(v.number())]));
export type CompareValue = v.InferOutput<typeof CompareValueSchema>;

/**
 * One changed property: `name` (ComparedPropertyName), old and new value, `unit` ('m', 't', 'm2' or '' for
 * text) and `code`, the property catalogue code the viewer formats it with (PLTH, MAT, W, ...; '' for cg and
 * boundingBox), so "12.0 → 14.0 mm" comes from formatPropertyValue(code, value).
 */
export const ChangedPropertySchema = v.object({
  name: v.picklist(COMPARED_PROPERTY_NAMES),
  code: v.string(),
  from: CompareValueSchema,
  to: CompareValueSchema,
  unit: v.string(),
});
export type ChangedProperty = v.InferOutput<typeof ChangedPropertySchema>;

/**
 * Steel comparison record (viewer.md §3): stId is the part's OCX id in the later revision, `from` / `to` the
 * revision numbers, `index` / `fromIndex` the part's object-table index in the later / earlier revision,
 * `geometryChanged` whether the part's shape moved or changed beyond the geometry tolerance (0.5 mm).
 * A part is listed when at least one property changed or its geometry did.
 */
export const SteelComparisonRecordSchema = v.object({
  stId: v.string(),
  guid: v.nullable(v.string()),
  name: v.string(),
  type: v.picklist(COMPARED_TYPES),
  from: v.number(),
  to: v.number(),
  index: v.number(),
  fromIndex: v.number(),
  /** How the two were paired: by GUID, or by name and type (no GUID, or a GUID found in one revision only). */
  matchedBy: v.picklist(['guid', 'name']),
  changedProperties: v.array(ChangedPropertySchema),
  geometryChanged: v.boolean(),
});
export type SteelComparisonRecord = v.InferOutput<typeof SteelComparisonRecordSchema>;

/** A part only in the later revision; `index` is its object-table index there. */
export const AddedPartSchema = v.object({
  stId: v.string(),
  guid: v.nullable(v.string()),
  name: v.string(),
  type: v.picklist(COMPARED_TYPES),
  index: v.number(),
});
export type AddedPart = v.InferOutput<typeof AddedPartSchema>;

/**
 * A part only in the earlier revision; `fromIndex` is its object-table index in the earlier revision, so
 * the viewer can draw it as a ghost from that revision's .sc package.
 */
export const RemovedPartSchema = v.object({
  stId: v.string(),
  guid: v.nullable(v.string()),
  name: v.string(),
  type: v.picklist(COMPARED_TYPES),
  fromIndex: v.number(),
});
export type RemovedPart = v.InferOutput<typeof RemovedPartSchema>;

/** A candidate of an ambiguous match: OCX id and object-table index in its revision. */
export const MatchCandidateSchema = v.object({ stId: v.string(), index: v.number() });

/**
 * Parts that could not be paired: `key` is what they were matched by ('guid' when a GUID occurs more than
 * once in a revision, else 'name' for GUID-less parts sharing name and type); `value` the GUID or the name.
 * Such parts are listed here only (neither added, removed nor changed).
 */
export const AmbiguousMatchSchema = v.object({
  key: v.picklist(['guid', 'name']),
  value: v.string(),
  type: v.picklist(COMPARED_TYPES),
  fromCandidates: v.array(MatchCandidateSchema),
  toCandidates: v.array(MatchCandidateSchema),
});
export type AmbiguousMatch = v.InferOutput<typeof AmbiguousMatchSchema>;

/** Counts of one part type. */
export const CompareTypeCountsSchema = v.object({
  type: v.picklist(COMPARED_TYPES),
  added: v.number(),
  removed: v.number(),
  changed: v.number(),
  unchanged: v.number(),
  ambiguous: v.number(),
});
export type CompareTypeCounts = v.InferOutput<typeof CompareTypeCountsSchema>;

/** Weight (t) and centre of gravity (m; null when the weight is 0) of the compared parts of one revision. */
export const ShipMassSchema = v.object({
  revision: v.number(),
  weight: v.number(),
  cg: v.nullable(v.tuple([v.number(), v.number(), v.number()])),
});
export type ShipMass = v.InferOutput<typeof ShipMassSchema>;

/** Change summary: counts per type, and the ship's steel weight and centre of gravity before and after. */
export const CompareSummarySchema = v.object({
  perType: v.array(CompareTypeCountsSchema),
  before: ShipMassSchema,
  after: ShipMassSchema,
});
export type CompareSummary = v.InferOutput<typeof CompareSummarySchema>;

/** Tolerances the comparison used (absolute in m, or relative as named). */
export const CompareTolerancesSchema = v.object({
  /** Thickness: absolute, m. */
  thicknessM: v.number(),
  /** Length, centre of gravity, bounding box: absolute, m. */
  lengthM: v.number(),
  /** Weight, area: relative (0.001 = 0.1 %). */
  relative: v.number(),
  /** Geometry: largest move of a bound or of the surface centroid, m (surface area: `relative`). */
  geometryM: v.number(),
});

/**
 * GET /api/viewer/compare response (application.md §3 "Comparison data": steelObjectsAdded and
 * steelObjectsChanged, each entry with stId; plus removed parts, ambiguous matches and a summary).
 */
export const CompareResponseSchema = v.object({
  format: v.string(),
  projectName: v.string(),
  fromRevision: v.number(),
  toRevision: v.number(),
  /** When the comparison was computed (ISO 8601). */
  computedAt: v.string(),
  tolerances: CompareTolerancesSchema,
  steelObjectsAdded: v.array(AddedPartSchema),
  steelObjectsRemoved: v.array(RemovedPartSchema),
  steelObjectsChanged: v.array(SteelComparisonRecordSchema),
  ambiguous: v.array(AmbiguousMatchSchema),
  summary: CompareSummarySchema,
});
export type CompareResponse = v.InferOutput<typeof CompareResponseSchema>;

/**
 * POST /api/viewer/compare/checkData body: the pair and the `format` of the data the client holds (absent when
 * it holds none).
 */
export const CheckCompareDataBodySchema = v.pipe(
  v.object({
    projectName: projectNameField(),
    fromRevision: intParam(),
    toRevision: intParam(),
    format: v.optional(v.pipe(v.string(), v.maxLength(100, 'At most 100 characters'))),
    /** computedAt of the client's copy; compared with the server's to tell a stale copy. */
    computedAt: v.optional(v.pipe(v.string(), v.maxLength(100, 'At most 100 characters'))),
  }),
  v.forward(
    v.check((q) => q.fromRevision < q.toRevision, 'Must be below toRevision'),
    ['fromRevision'],
  ),
);
export type CheckCompareDataBody = v.InferOutput<typeof CheckCompareDataBodySchema>;

/**
 * checkData answer: `format` the server's current format; `cached` the server holds a computed comparison
 * of the pair that is current (neither revision replaced since); `computing` one is being computed now;
 * `computedAt` of the server's copy (null without one); `usable` the client's copy (its format and
 * computedAt) can be used as is — otherwise it should GET /api/viewer/compare again.
 */
export const CheckCompareDataResponseSchema = v.object({
  format: v.string(),
  cached: v.boolean(),
  computing: v.boolean(),
  computedAt: v.nullable(v.string()),
  usable: v.boolean(),
});
export type CheckCompareDataResponse = v.InferOutput<typeof CheckCompareDataResponseSchema>;

/** GET /api/viewer/compare/comment-changes query: the revision the viewer shows. */
export const CommentChangesQuerySchema = v.object({
  projectName: projectNameField(),
  revision: intParam(),
});
export type CommentChangesQuery = v.InferOutput<typeof CommentChangesQuerySchema>;

/**
 * A thread whose referred objects changed or vanished after the thread's revision: `changedInRevision` the
 * first later revision (≤ the query's revision) in which one of them changed or disappeared; `objects` the
 * referred object ids concerned, with `removed` true when the object is gone in that revision.
 */
export const CommentChangeSchema = v.object({
  threadId: v.string(),
  threadRevision: v.number(),
  changedInRevision: v.number(),
  objects: v.array(v.object({ id: v.string(), removed: v.boolean() })),
});
export type CommentChange = v.InferOutput<typeof CommentChangeSchema>;

/** comment-changes answer; threads without such changes are not listed. */
export const CommentChangesResponseSchema = v.object({ threads: v.array(CommentChangeSchema) });
export type CommentChangesResponse = v.InferOutput<typeof CommentChangesResponseSchema>;
