/**
 * Geometry contract (viewer.md §7 "Geometry", §3 "Surface object").
 *
 * - POST /api/keelson-instance/geometry/surface-objects?modelName&revision&viewerId
 *   body: list of object names (an object's name or its OCX id; at most MAX_SURFACE_OBJECT_NAMES)
 *   → SurfaceObjectsResponse: `surfaceObjects` (name, definitionPlane, parameters) for the planar parts
 *   among them, and `skipped` naming the others with the reason (unknown name, no geometry, not planar).
 *
 * - POST /api/keelson-instance/geometry/surface-normals-at-points?modelName&revision&viewerId
 *   body: list of points {x, y, z} in metres (at most MAX_SURFACE_NORMAL_POINTS)
 *   → per point, in order: the nearest surface of the revision's geometry (its object's id and name, the
 *   distance in m) and that surface's unit normal, turned toward the point; null fields for a model without
 *   geometry.
 *
 * Points and lengths in metres, angles in degrees, normals unit vectors. A parameter's value is what the
 * viewer labels (×1000, no decimals, 'R ' before a radius: viewer.md §9 "Drawing").
 */
import * as v from 'valibot';
import { requiredString, viewerIdParam } from './common';
import { PointMSchema, revisionParam } from './models';

/** Most names one call may ask for. */
export const MAX_SURFACE_OBJECT_NAMES = 2000;

export const SurfaceObjectsQuerySchema = v.object({
  modelName: requiredString(),
  revision: revisionParam(),
  viewerId: viewerIdParam(),
});
export type SurfaceObjectsQuery = v.InferOutput<typeof SurfaceObjectsQuerySchema>;

export const SurfaceObjectsBodySchema = v.pipe(
  v.array(
    v.pipe(
      v.string('Must be a list of object names'),
      v.trim(),
      v.nonEmpty('Object names must not be empty'),
      v.maxLength(200, 'Object names have at most 200 characters'),
    ),
    'Must be a list of object names',
  ),
  v.maxLength(MAX_SURFACE_OBJECT_NAMES, `At most ${MAX_SURFACE_OBJECT_NAMES} object names per call`),
);

export const SurfaceParameterSchema = v.object({
  parameterType: v.picklist(['length', 'angle', 'horizontalLength', 'verticalLength', 'radius']),
  parameterValue: v.number(),
  startPoint: v.optional(PointMSchema),
  endPoint: v.optional(PointMSchema),
  cornerPoint: v.optional(PointMSchema),
  angleVertex: v.optional(PointMSchema),
  startAngle: v.optional(v.number()),
  coordinateSystem: v.optional(
    v.object({ origin: PointMSchema, axes: v.tuple([PointMSchema, PointMSchema, PointMSchema]) }),
  ),
});
export type SurfaceParameterApi = v.InferOutput<typeof SurfaceParameterSchema>;

export const SurfaceObjectSchema = v.object({
  name: v.string(),
  definitionPlane: v.object({
    point: PointMSchema,
    normal: v.object({ nx: v.number(), ny: v.number(), nz: v.number() }),
  }),
  parameters: v.array(SurfaceParameterSchema),
});
export type SurfaceObjectApi = v.InferOutput<typeof SurfaceObjectSchema>;

export const SurfaceObjectsResponseSchema = v.object({
  surfaceObjects: v.array(SurfaceObjectSchema),
  skipped: v.array(v.object({ name: v.string(), reason: v.picklist(['unknown', 'no-geometry', 'not-planar']) })),
});
export type SurfaceObjectsResponse = v.InferOutput<typeof SurfaceObjectsResponseSchema>;

/** Most points one surface-normals call may ask for. */
export const MAX_SURFACE_NORMAL_POINTS = 1000;

const finite = () => v.pipe(v.number('Must be a number'), v.finite('Must be a finite number'));

export const SurfaceNormalsBodySchema = v.pipe(
  v.array(v.object({ x: finite(), y: finite(), z: finite() }), 'Must be a list of points { x, y, z }'),
  v.maxLength(MAX_SURFACE_NORMAL_POINTS, `At most ${MAX_SURFACE_NORMAL_POINTS} points per call`),
);

/** One answer per point. */
export const SurfaceNormalsResponseSchema = v.array(
  v.object({
    point: PointMSchema,
    normal: v.nullable(v.object({ nx: v.number(), ny: v.number(), nz: v.number() })),
    /** OCX id and display name of the object the surface belongs to. */
    id: v.nullable(v.string()),
    name: v.nullable(v.string()),
    /** Distance from the point to the surface, m. */
    distance: v.nullable(v.number()),
  }),
);
export type SurfaceNormalsResponse = v.InferOutput<typeof SurfaceNormalsResponseSchema>;
