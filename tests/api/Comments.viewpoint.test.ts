/**
 * The BCF viewpoint mapping (api/comments/bcf/viewpoint.ts) without a server: orbit cameras at any angle,
 * the poles included, come back with the same eye, direction and view size; the orbit target (which BCF
 * cannot carry) becomes the point of the view line nearest the model's centre.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_VIEW } from '../../api/comments/AttachmentStore';
import { objectIndex, viewToVisInfo, visInfoToView } from '../../api/comments/bcf/viewpoint';
import { buildXml, parseXml } from '../../api/comments/bcf/xml';
import type { SavedView } from '../../api/contract';
import { orbitBasis } from '../../engine/interaction/cameraMath';

/** A model whose centre is (1, 1, 1) m (bounds are mm). */
const index = objectIndex([{ id: 'P1', guid: null, bounds: [0, 0, 0, 2000, 2000, 2000] }]);
const GUID = '00000000-0000-4000-8000-000000000001';

const eye = (s: SavedView) => {
  const { back } = orbitBasis(s.longitude, s.latitude);
  return [s.target.x, s.target.y, s.target.z].map((c, k) => c + back[k] * s.distance);
};

function roundTrip(s: SavedView): SavedView {
  const doc = viewToVisInfo(GUID, { ...EMPTY_VIEW, savedView: s }, index, '3.0');
  if (!doc) throw new Error('no viewpoint');
  const back = visInfoToView(parseXml(buildXml(doc)), index).view.savedView;
  if (!back) throw new Error('no camera read');
  return back;
}

describe('BCF camera mapping', () => {
  it.each([
    [90, 90],
    [90, -90],
    [0, 90],
    [180, -90],
    [160, 10],
    [-30, 45],
    [180, 0],
  ])('keeps longitude %d°, latitude %d°, the eye and the view size', (longitude, latitude) => {
    const s: SavedView = { longitude, latitude, distance: 25, target: { x: 3, y: -2, z: 7 }, width: 16, height: 9 };
    const r = roundTrip(s);
    expect(r.longitude).toBeCloseTo(longitude, 6);
    expect(r.latitude).toBeCloseTo(latitude, 6);
    expect(r.width).toBeCloseTo(16, 9);
    expect(r.height).toBeCloseTo(9, 9);
    eye(r).forEach((c, k) => expect(c).toBeCloseTo(eye(s)[k], 6));
  });

  it('puts the target on the view line nearest the model centre', () => {
    const r = roundTrip({ longitude: 0, latitude: 0, distance: 50, target: { x: 0, y: 1, z: 1 }, width: 4, height: 3 });
    // Looking along −X from x = 50: the centre (1, 1, 1) lies on the line, 49 m ahead.
    expect(r.distance).toBeCloseTo(49, 9);
    expect(r.target).toEqual({ x: expect.closeTo(1, 9), y: expect.closeTo(1, 9), z: expect.closeTo(1, 9) });
  });

  it('writes a perspective camera with its field of view and reads the box back from six planes', () => {
    const doc = viewToVisInfo(
      GUID,
      {
        ...EMPTY_VIEW,
        isClippingEnabled: true,
        clippingBox: { xMin: -1, xMax: 2, yMin: -3, yMax: 4, zMin: -5, zMax: 6 },
        savedView: {
          longitude: 10,
          latitude: 5,
          distance: 8,
          target: { x: 1, y: 1, z: 1 },
          width: 4,
          height: 3,
          perspective: true,
          fieldOfView: 50,
        },
      },
      index,
      '3.0',
    );
    const xml = buildXml(doc ?? {});
    expect(xml).toContain('<FieldOfView>50</FieldOfView>');
    const r = visInfoToView(parseXml(xml), index);
    expect(r.view.savedView).toMatchObject({ perspective: true, fieldOfView: 50 });
    expect(r.view.clippingBox).toEqual({ xMin: -1, xMax: 2, yMin: -3, yMax: 4, zMin: -5, zMax: 6 });
    expect(r.view.isClippingEnabled).toBe(true);
    expect(r.unmatched).toEqual([]);
  });
});
