/**
 * A VIEW attachment (viewer.md §3 "Attachment") as a BCF viewpoint (visinfo.xsd, 2.1 and 3.0) and back.
 *
 * - Camera: savedView's orbit (engine/interaction/cameraMath.ts convention: the camera sits at
 *   target + distance · (cos lat·cos lon, −cos lat·sin lon, sin lat)) becomes CameraViewPoint, a
 *   CameraDirection towards the target and the orbit's up vector. Orthogonal: ViewToWorldScale = the view's
 *   height, AspectRatio = width / height. Perspective (savedView.perspective): FieldOfView (default 60°).
 *   BCF carries no orbit target: on import it is the point of the view line nearest the model's centre.
 * - Components: referredObjects (the selection) and visibleObjects (DefaultVisibility false, the visible
 *   ones as exceptions; none listed = everything visible), each as IfcGuid (the OCX GUID in IFC form) with
 *   the object id as AuthoringToolId. Unmatched components are reported, never silently dropped.
 * - The clipping box (when clipping is on) becomes six clipping planes whose direction points to the cut
 *   away side; axis-aligned planes read back as a box (a side without a plane stays open: ±OPEN_BOUND).
 * Lengths are metres in both.
 */
import { orbitBasis } from '../../../engine/interaction/cameraMath';
import type { AttachmentView, ClippingBox, Point, SavedView } from '../../contract/comments';
import { compressGuid, expandGuid } from './ifcGuid';
import { attr, child, children, textOf, type XmlNode } from './xml';

/** The BCF versions Keelson writes and reads. */
export type BcfVersion = '3.0' | '2.1';
/** Where an imported clipping box has no plane on a side, m (far outside any ship). */
export const OPEN_BOUND = 100_000;
/** Field of view of a perspective camera without one, degrees; aspect ratio of a 2.1 view, w / h. */
export const DEFAULT_FIELD_OF_VIEW = 60;
export const DEFAULT_ASPECT = 16 / 9;

/** The model's objects as BCF needs them: id ⇄ GUID, and the centre of the model (m) for camera targets. */
export interface ObjectIndex {
  guidOf(id: string): string | null;
  idOfGuid(uuid: string): string | undefined;
  has(id: string): boolean;
  allIds(): string[];
  center: Point | null;
}

/**
 * What an ObjectIndex is made of, as plain data (sent to the BCF import's worker thread): object ids, their
 * GUIDs (null where none) in the same order, and the model's centre (m) or null.
 */
export interface ObjectIndexData {
  ids: string[];
  guids: (string | null)[];
  center: Point | null;
}

/** The ObjectIndexData of a revision's object table (ids, GUIDs, bounds in mm). */
export function objectIndexData(
  objects: readonly { id: string; guid: string | null; bounds: readonly number[] | null }[],
): ObjectIndexData {
  const ids: string[] = [];
  const guids: (string | null)[] = [];
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const o of objects) {
    ids.push(o.id);
    guids.push(o.guid);
    if (o.bounds)
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k], o.bounds[k]);
        hi[k] = Math.max(hi[k], o.bounds[k + 3]);
      }
  }
  const center = Number.isFinite(lo[0])
    ? { x: (lo[0] + hi[0]) / 2000, y: (lo[1] + hi[1]) / 2000, z: (lo[2] + hi[2]) / 2000 }
    : null;
  return { ids, guids, center };
}

/** An ObjectIndex of a revision's object table (ids, normalised GUIDs, bounds in mm). */
export function objectIndex(
  objects: readonly { id: string; guid: string | null; bounds: readonly number[] | null }[],
): ObjectIndex {
  return indexOfData(objectIndexData(objects));
}

/** The ObjectIndex of ObjectIndexData (a later id with the same GUID wins, as in the object table's order). */
export function indexOfData({ ids, guids, center }: ObjectIndexData): ObjectIndex {
  const byId = new Map<string, string | null>();
  const byGuid = new Map<string, string>();
  for (let i = 0; i < ids.length; i++) {
    byId.set(ids[i], guids[i]);
    const g = guids[i];
    if (g) byGuid.set(g.toUpperCase(), ids[i]);
  }
  return {
    guidOf: (id) => byId.get(id) ?? null,
    idOfGuid: (uuid) => byGuid.get(uuid.toUpperCase()),
    has: (id) => byId.has(id),
    allIds: () => [...byId.keys()],
    center,
  };
}

const xyz = (p: readonly number[]) => ({ X: p[0], Y: p[1], Z: p[2] });
const num = (n: unknown): number => Number(textOf(n));
const vec = (n: unknown): [number, number, number] | null => {
  if (!n || typeof n !== 'object') return null;
  const o = n as XmlNode;
  const v = [num(o.X), num(o.Y), num(o.Z)];
  return v.every(Number.isFinite) ? (v as [number, number, number]) : null;
};

function componentXml(id: string, index: ObjectIndex): XmlNode {
  const guid = index.guidOf(id);
  const ifc = guid ? compressGuid(guid) : null;
  return { ...(ifc ? { '@_IfcGuid': ifc } : {}), OriginatingSystem: 'Keelson', AuthoringToolId: id };
}

function cameraXml(s: SavedView, version: BcfVersion): [string, XmlNode] {
  const { back, up } = orbitBasis(s.longitude, s.latitude);
  const t = [s.target.x, s.target.y, s.target.z];
  const eye = t.map((c, k) => c + back[k] * s.distance);
  const aspect = s.height > 0 && s.width > 0 ? s.width / s.height : DEFAULT_ASPECT;
  const base = {
    CameraViewPoint: xyz(eye),
    CameraDirection: xyz(back.map((c) => -c)),
    CameraUpVector: xyz(up),
  };
  if (s.perspective)
    return [
      'PerspectiveCamera',
      {
        ...base,
        FieldOfView: s.fieldOfView ?? DEFAULT_FIELD_OF_VIEW,
        ...(version === '3.0' ? { AspectRatio: aspect } : {}),
      },
    ];
  return [
    'OrthogonalCamera',
    { ...base, ViewToWorldScale: s.height, ...(version === '3.0' ? { AspectRatio: aspect } : {}) },
  ];
}

function planesXml(b: ClippingBox): XmlNode[] {
  const c = [(b.xMin + b.xMax) / 2, (b.yMin + b.yMax) / 2, (b.zMin + b.zMax) / 2];
  const sides: [number, number, number][] = [
    [0, b.xMin, -1],
    [0, b.xMax, 1],
    [1, b.yMin, -1],
    [1, b.yMax, 1],
    [2, b.zMin, -1],
    [2, b.zMax, 1],
  ];
  return sides.map(([axis, at, sign]) => {
    const loc = [...c];
    loc[axis] = at;
    const dir = [0, 0, 0];
    dir[axis] = sign;
    return { Location: xyz(loc), Direction: xyz(dir) };
  });
}

/**
 * The VisualizationInfo document of a view, or null when the view has no camera (BCF requires one; the
 * snapshot then travels alone).
 */
export function viewToVisInfo(
  guid: string,
  view: AttachmentView,
  index: ObjectIndex,
  version: BcfVersion,
): XmlNode | null {
  if (!view.savedView) return null;
  const [cameraName, camera] = cameraXml(view.savedView, version);
  const components: XmlNode = {};
  if (view.referredObjects.length)
    components.Selection = { Component: view.referredObjects.map((id) => componentXml(id, index)) };
  components.Visibility = view.visibleObjects.length
    ? {
        '@_DefaultVisibility': 'false',
        Exceptions: { Component: view.visibleObjects.map((id) => componentXml(id, index)) },
      }
    : { '@_DefaultVisibility': 'true' };
  return {
    VisualizationInfo: {
      '@_Guid': guid,
      Components: components,
      [cameraName]: camera,
      ...(view.isClippingEnabled && view.clippingBox
        ? { ClippingPlanes: { ClippingPlane: planesXml(view.clippingBox) } }
        : {}),
    },
  };
}

/** What reading a viewpoint gave: the view, component references that match no object, and warnings. */
export interface ReadView {
  view: AttachmentView;
  unmatched: string[];
  warnings: string[];
}

function readComponents(list: unknown[], index: ObjectIndex, unmatched: Set<string>): string[] {
  const ids: string[] = [];
  for (const c of list) {
    const ifc = attr(c, 'IfcGuid');
    const tool = textOf(child(c, 'AuthoringToolId') ?? (c as XmlNode)?.AuthoringToolId);
    const uuid = ifc ? expandGuid(ifc) : null;
    const id = (uuid ? index.idOfGuid(uuid) : undefined) ?? (tool && index.has(tool) ? tool : undefined);
    if (id !== undefined) ids.push(id);
    else unmatched.add(ifc ?? tool ?? '(component without IfcGuid)');
  }
  return [...new Set(ids)];
}

function readCamera(vi: XmlNode, index: ObjectIndex, warnings: string[]): SavedView | null {
  const ortho = child(vi, 'OrthogonalCamera');
  const persp = child(vi, 'PerspectiveCamera');
  const cam = ortho ?? persp;
  if (!cam) return null;
  const eye = vec(cam.CameraViewPoint);
  const dir = vec(cam.CameraDirection);
  const upv = vec(cam.CameraUpVector);
  if (!eye || !dir || !upv) {
    warnings.push('A camera with missing coordinates was ignored');
    return null;
  }
  const len = Math.hypot(...dir) || 1;
  const d = dir.map((c) => c / len);
  const back = d.map((c) => -c);
  const latitude = (Math.asin(Math.max(-1, Math.min(1, back[2]))) * 180) / Math.PI;
  // At the poles the longitude follows from the up vector (the orbit up is (−sin lat·cos lon, sin lat·sin lon, cos lat)).
  const flat = Math.hypot(back[0], back[1]) > 1e-9;
  const sl = Math.sin((latitude * Math.PI) / 180);
  const longitude = flat
    ? (Math.atan2(-back[1], back[0]) * 180) / Math.PI
    : (Math.atan2(upv[1] * Math.sign(sl), -upv[0] * Math.sign(sl)) * 180) / Math.PI;
  const c = index.center;
  const distance = c ? Math.max(0, (c.x - eye[0]) * d[0] + (c.y - eye[1]) * d[1] + (c.z - eye[2]) * d[2]) : 0;
  const target = { x: eye[0] + d[0] * distance, y: eye[1] + d[1] * distance, z: eye[2] + d[2] * distance };
  const aspectRaw = num(cam.AspectRatio);
  const aspect = Number.isFinite(aspectRaw) && aspectRaw > 0 ? aspectRaw : DEFAULT_ASPECT;
  if (ortho) {
    const height = num(ortho.ViewToWorldScale);
    const h = Number.isFinite(height) && height > 0 ? height : 10;
    return { longitude, latitude, distance, target, width: h * aspect, height: h };
  }
  const fovRaw = num(cam.FieldOfView);
  const fieldOfView = Number.isFinite(fovRaw) && fovRaw > 0 && fovRaw < 180 ? fovRaw : DEFAULT_FIELD_OF_VIEW;
  const height = 2 * Math.max(distance, 1) * Math.tan((fieldOfView * Math.PI) / 360);
  return { longitude, latitude, distance, target, width: height * aspect, height, perspective: true, fieldOfView };
}

function readClipping(vi: XmlNode, warnings: string[]): ClippingBox | null {
  const planes = children(child(vi, 'ClippingPlanes'), 'ClippingPlane');
  if (!planes.length) return null;
  const box: ClippingBox = {
    xMin: -OPEN_BOUND,
    xMax: OPEN_BOUND,
    yMin: -OPEN_BOUND,
    yMax: OPEN_BOUND,
    zMin: -OPEN_BOUND,
    zMax: OPEN_BOUND,
  };
  const keys = [
    ['xMin', 'xMax'],
    ['yMin', 'yMax'],
    ['zMin', 'zMax'],
  ] as const;
  let skipped = 0;
  for (const p of planes) {
    const loc = vec((p as XmlNode).Location);
    const dir = vec((p as XmlNode).Direction);
    const axis = dir ? dir.findIndex((c) => Math.abs(c) > 0.999999) : -1;
    if (!loc || !dir || axis < 0) {
      skipped++;
      continue;
    }
    box[keys[axis][dir[axis] < 0 ? 0 : 1]] = loc[axis];
  }
  if (skipped) warnings.push(`${skipped} clipping plane(s) not along an axis were ignored`);
  return skipped === planes.length ? null : box;
}

/** Reads a VisualizationInfo document (2.1 or 3.0) into a view of this model. */
export function visInfoToView(doc: XmlNode, index: ObjectIndex): ReadView {
  const vi = child(doc, 'VisualizationInfo') ?? {};
  const warnings: string[] = [];
  const unmatched = new Set<string>();
  const comps = child(vi, 'Components');
  const referredObjects = readComponents(children(child(comps, 'Selection'), 'Component'), index, unmatched);
  const vis = child(comps, 'Visibility');
  const exceptions = readComponents(children(child(vis, 'Exceptions'), 'Component'), index, unmatched);
  const defaultVisible = (attr(vis, 'DefaultVisibility') ?? (vis ? 'false' : 'true')).toLowerCase() === 'true';
  let visibleObjects: string[] = [];
  if (!defaultVisible) visibleObjects = exceptions;
  else if (exceptions.length) {
    const hidden = new Set(exceptions);
    visibleObjects = index.allIds().filter((id) => !hidden.has(id));
  }
  const savedView = readCamera(vi, index, warnings);
  const clippingBox = readClipping(vi, warnings);
  if (children(child(vi, 'Lines'), 'Line').length) warnings.push('Markup lines of a viewpoint are not carried');
  if (children(child(vi, 'Bitmaps'), 'Bitmap').length || children(vi, 'Bitmap').length)
    warnings.push('Bitmaps of a viewpoint are not carried');
  return {
    view: {
      visibleObjects,
      referredObjects,
      isClippingEnabled: clippingBox !== null,
      isWorkplaneEnabled: false,
      coloring: null,
      savedView,
      workplane: null,
      clippingBox,
    },
    unmatched: [...unmatched],
    warnings,
  };
}
