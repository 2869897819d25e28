/**
 * Model data contract for the viewer (ARCHITECTURE.md "Data flow"; viewer.md §7 instance calls).
 * Lengths here are metres (the API's unit): the server divides the engine's millimetres by 1000.
 *
 * Paths:
 * - GET  /api/keelson-static/models/{modelName}/{revision}/{modelName}.sc  (revision may be 'latest')
 * - GET  /api/keelson-instance/model/objects?modelName&revision
 * - GET  /api/keelson-instance/model/properties?modelName&revision&index
 * - POST /api/keelson-instance/steel/quantities?viewerId&modelName&revision&qnts&limits  body: object names/ids
 * - POST /api/keelson-instance/ship-model/quantities?viewerId&modelName&revision&qnts  body: compartment names/ids
 * - POST /api/keelson-instance/steel/stiffener-web-flange-directions  body: [{ id, point? }]
 * - POST /api/keelson-instance/steel/bracket-material-directions  body: bracket names/ids
 * - GET  /api/keelson-instance/maintenance/status?modelName&modelRevision&keelsonUser
 * - POST /api/keelson-instance/maintenance/shutdown?modelName&modelRevision&viewerId
 */
import * as v from 'valibot';
import { STRING_MAX_LENGTH, boundedString, intParam, requiredString, viewerIdParam } from './common';

/** A revision selector: a number or 'latest' (also accepted when absent). */
export const revisionParam = () =>
  v.optional(v.union([v.literal('latest'), intParam("Must be a revision number or 'latest'")]), 'latest');

/** GET /api/keelson-static/models/{modelName}/{revision}/{file} params; `file` ends with '.sc'. */
export const ScParamsSchema = v.object({
  modelName: requiredString(),
  revision: revisionParam(),
  file: v.pipe(
    v.string(),
    v.maxLength(220, 'At most 220 characters'),
    v.endsWith('.sc', "Must name the model's .sc file"),
  ),
});

/** Box [minX, minY, minZ, maxX, maxY, maxZ] in metres. */
export const BoxMSchema = v.tuple([v.number(), v.number(), v.number(), v.number(), v.number(), v.number()]);

export const ModelQuerySchema = v.object({
  modelName: requiredString(),
  revision: revisionParam(),
  viewerId: viewerIdParam(),
});
export type ModelQuery = v.InferOutput<typeof ModelQuerySchema>;

/** One row of the object table (engine/model/types.ts ModelObject, bounds in m). */
export const ApiModelObjectSchema = v.object({
  index: v.number(),
  id: v.string(),
  guid: v.nullable(v.string()),
  name: v.string(),
  type: v.string(),
  element: v.string(),
  parent: v.number(),
  block: v.nullable(v.string()),
  bounds: v.nullable(BoxMSchema),
});
export type ApiModelObject = v.InferOutput<typeof ApiModelObjectSchema>;

/** A reference plane; coordinate in m. */
export const ApiRefPlaneSchema = v.object({
  id: v.string(),
  name: v.string(),
  coordinate: v.number(),
  number: v.nullable(v.number()),
});

/** GET .../model/objects response. */
export const ModelObjectsResponseSchema = v.object({
  info: v.object({
    name: v.string(),
    schemaVersion: v.string(),
    originatingSystem: v.string(),
    timeStamp: v.string(),
    /** Bounds of the whole model, m. */
    bounds: BoxMSchema,
    modelName: v.string(),
    revision: v.number(),
    warnings: v.number(),
  }),
  objects: v.array(ApiModelObjectSchema),
  frames: v.object({ x: v.array(ApiRefPlaneSchema), y: v.array(ApiRefPlaneSchema), z: v.array(ApiRefPlaneSchema) }),
  /**
   * The model's block systems (viewer.md §3 "Block system"): each with its blocks and the object indices of
   * each block's parts; the model tree's 'Blocks ({system})' folders and its block filter.
   */
  blockSystems: v.optional(
    v.array(
      v.object({
        name: v.string(),
        blocks: v.array(v.object({ name: v.string(), objects: v.array(v.number()) })),
      }),
    ),
  ),
});
export type ModelObjectsResponse = v.InferOutput<typeof ModelObjectsResponseSchema>;

export const PropertiesQuerySchema = v.object({
  modelName: requiredString(),
  revision: revisionParam(),
  index: intParam(),
  viewerId: viewerIdParam(),
});

/** A property row: viewer.md §3 "Property quantity record" plus its value (catalogue unit). */
export const PropertyRowSchema = v.object({
  name: v.string(),
  description: v.string(),
  unit: v.string(),
  isSummable: v.boolean(),
  value: v.union([v.number(), v.string()]),
});
export type PropertyRow = v.InferOutput<typeof PropertyRowSchema>;

/** GET .../model/properties response. */
export const PropertiesResponseSchema = v.object({
  index: v.number(),
  id: v.string(),
  properties: v.array(PropertyRowSchema),
});
export type PropertiesResponse = v.InferOutput<typeof PropertiesResponseSchema>;

/** GET .../model/property-columns query: codes is a comma-separated list of catalogue codes (PLTH,PURP). */
export const PropertyColumnsQuerySchema = v.object({
  modelName: requiredString(),
  revision: revisionParam(),
  codes: requiredString('Field is required', 1000),
  viewerId: viewerIdParam(),
});

/**
 * GET .../model/property-columns response: for each requested code one column parallel to the object table
 * (value in the catalogue unit, or null where the object has none). Feeds the render engine's sections,
 * labels and annotations in one call instead of one call per object.
 */
export const PropertyColumnsResponseSchema = v.object({
  codes: v.array(v.string()),
  columns: v.record(v.string(), v.array(v.nullable(v.union([v.number(), v.string()])))),
});
export type PropertyColumnsResponse = v.InferOutput<typeof PropertyColumnsResponseSchema>;

/** Most quantities one quantities call may ask for. */
export const MAX_QUANTITY_NAMES = 40;

/**
 * POST .../steel/quantities query (viewer.md §7). `qnts`: comma-separated quantities, each a name with optional
 * qualifiers after '/' (api/instance/quantities.ts: 'W', 'AREA/PS', 'thickness', 'W/T/H'); at most
 * MAX_QUANTITY_NAMES. `limits`: an optional box 'xMin,xMax,yMin,yMax,zMin,zMax' in metres (a blank bound is
 * open): only parts whose centre of gravity lies inside count.
 */
export const QuantitiesQuerySchema = v.object({
  viewerId: viewerIdParam(),
  modelName: requiredString(),
  revision: revisionParam(),
  qnts: requiredString('Field is required', 1000),
  limits: v.optional(boundedString(STRING_MAX_LENGTH)),
});
export type QuantitiesQuery = v.InferOutput<typeof QuantitiesQuerySchema>;
/** POST .../ship-model/quantities query (viewer.md §7: body names, query qnts; no limits). */
export const ShipModelQuantitiesQuerySchema = v.object({
  viewerId: viewerIdParam(),
  modelName: requiredString(),
  revision: revisionParam(),
  qnts: requiredString('Field is required', 1000),
});
/** Most object ids one quantities call may ask for. */
export const MAX_QUANTITY_IDS = 10_000;
/** Longest object id (OCX @id), characters. */
export const OBJECT_ID_MAX_LENGTH = 200;

/**
 * Body: object names or OCX ids (a name matching several objects counts them all), at most MAX_QUANTITY_IDS
 * of at most OBJECT_ID_MAX_LENGTH characters.
 */
export const QuantitiesBodySchema = v.pipe(
  v.array(
    v.pipe(
      v.string('Must be a list of object ids'),
      v.maxLength(OBJECT_ID_MAX_LENGTH, `Object ids have at most ${OBJECT_ID_MAX_LENGTH} characters`),
    ),
    'Must be a list of object ids',
  ),
  v.maxLength(MAX_QUANTITY_IDS, `At most ${MAX_QUANTITY_IDS} object ids per call`),
);
/**
 * One entry per body entry, in body order: `id` as sent, `quantities` keyed by the qnts entry as written (value
 * in the catalogue unit — m, m², m³, t — or text, '** VARIES **' when merged values differ, null when none).
 */
export const QuantitiesResponseSchema = v.array(
  v.object({ id: v.string(), quantities: v.record(v.string(), v.union([v.number(), v.string(), v.null()])) }),
);
export type QuantitiesResponse = v.InferOutput<typeof QuantitiesResponseSchema>;

/** A unit direction. */
export const DirectionSchema = v.object({ nx: v.number(), ny: v.number(), nz: v.number() });
export type Direction = v.InferOutput<typeof DirectionSchema>;
/** A point in metres. */
export const PointMSchema = v.object({
  x: v.pipe(v.number('Must be a number'), v.finite('Must be a finite number')),
  y: v.pipe(v.number('Must be a number'), v.finite('Must be a finite number')),
  z: v.pipe(v.number('Must be a number'), v.finite('Must be a finite number')),
});

/**
 * POST .../steel/stiffener-web-flange-directions body: per profile (stiffener, edge reinforcement, pillar) its
 * OCX id or name and optionally a point (m) on it; without a point, the profile's first inclination.
 */
export const WebFlangeDirectionsBodySchema = v.pipe(
  v.array(
    v.object({
      id: v.pipe(
        v.string('Must be an object id'),
        v.maxLength(OBJECT_ID_MAX_LENGTH, `Object ids have at most ${OBJECT_ID_MAX_LENGTH} characters`),
      ),
      point: v.optional(PointMSchema),
    }),
    'Must be a list of { id, point }',
  ),
  v.maxLength(MAX_QUANTITY_IDS, `At most ${MAX_QUANTITY_IDS} entries per call`),
);
/** Per body entry: the web and flange directions there (null: unknown id or no orientation data). */
export const WebFlangeDirectionsResponseSchema = v.array(
  v.object({ id: v.string(), webDirection: v.nullable(DirectionSchema), flangeDirection: v.nullable(DirectionSchema) }),
);
export type WebFlangeDirectionsResponse = v.InferOutput<typeof WebFlangeDirectionsResponseSchema>;

/**
 * POST .../steel/bracket-material-directions response (body: bracket ids or names, QuantitiesBodySchema): per
 * body entry the unit direction from the bracket's reference surface into its steel (null: unknown, not a
 * bracket, or no thickness).
 */
export const BracketMaterialDirectionsResponseSchema = v.array(
  v.object({ id: v.string(), materialDirection: v.nullable(DirectionSchema) }),
);
export type BracketMaterialDirectionsResponse = v.InferOutput<typeof BracketMaterialDirectionsResponseSchema>;

export const MaintenanceQuerySchema = v.object({
  modelName: requiredString(),
  modelRevision: revisionParam(),
  keelsonUser: v.optional(boundedString(254)),
  viewerId: viewerIdParam(),
});
/** 'Ok' = ready; 'Preparing' = converting, no revision yet; 'Unavailable' = the service cannot serve it (a model or revision that does not exist answers 404 instead). */
export const MaintenanceStatusSchema = v.object({ status: v.picklist(['Ok', 'Preparing', 'Unavailable']) });
export type MaintenanceStatus = v.InferOutput<typeof MaintenanceStatusSchema>;
/**
 * POST .../maintenance/shutdown response (query as maintenance/status): the server dropped its cached data of
 * the revision (parsed files, geometry); `released` counts the cache entries dropped (0 when none was held).
 * A later call loads the revision again.
 */
export const ShutdownResponseSchema = v.object({ released: v.number() });
export type ShutdownResponse = v.InferOutput<typeof ShutdownResponseSchema>;
