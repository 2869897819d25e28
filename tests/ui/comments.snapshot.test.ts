import { describe, expect, it } from 'vitest';
import { planRestore, pointToMetres, pointToMm, snapshotView } from '../../ui/logic/commentsSnapshot';

const ids = ['panelA', 'p1', 'p2', 'panelB', 's4'];
const view = {
  longitude: 160,
  latitude: 10,
  distance: 50_000,
  target: { x: 12_500, y: -300, z: 4_000 },
  width: 80_000,
  height: 45_000,
};

describe('comment snapshots: the viewer (mm, nodes) and the API (m, ids)', () => {
  it('stores the camera in metres, the selection and the clipping box, and leaves visibleObjects empty when all is shown', () => {
    const a = snapshotView({
      view,
      walking: false,
      ids,
      isHidden: () => false,
      hiddenCount: 0,
      selectedNodes: [2, 4],
      clip: { box: { xMin: -100, xMax: 5100, yMin: 0, yMax: 3000, zMin: -250, zMax: 1000 }, active: true },
    });
    expect(a.savedView).toEqual({
      longitude: 160,
      latitude: 10,
      distance: 50,
      target: { x: 12.5, y: -0.3, z: 4 },
      width: 80,
      height: 45,
    });
    expect(a.referredObjects).toEqual(['p2', 's4']);
    expect(a.visibleObjects).toEqual([]);
    expect(a.isClippingEnabled).toBe(true);
    expect(a.clippingBox).toEqual({ xMin: -0.1, xMax: 5.1, yMin: 0, yMax: 3, zMin: -0.25, zMax: 1 });
    expect(a.isWorkplaneEnabled).toBe(false);
  });
  it('lists the visible objects when some are hidden, and restores the same view', () => {
    const hidden = new Set([3, 4]);
    const a = snapshotView({
      view,
      walking: false,
      ids,
      isHidden: (n) => hidden.has(n),
      hiddenCount: 2,
      selectedNodes: [1],
      clip: null,
    });
    expect(a.visibleObjects).toEqual(['panelA', 'p1', 'p2']);
    const plan = planRestore(a, ids);
    expect(plan.hidden).toEqual([3, 4]);
    expect(plan.selected).toEqual([1]);
    expect(plan.view?.target.x).toBeCloseTo(12_500, 6);
    expect(plan.view?.width).toBeCloseTo(80_000, 6);
    expect(plan.clip).toBeNull();
    expect(plan.missing).toEqual([]);
  });
  it('shows everything for an empty visibleObjects and reports ids the model lacks', () => {
    const plan = planRestore(
      {
        visibleObjects: [],
        referredObjects: ['p1', 'gone'],
        isClippingEnabled: false,
        isWorkplaneEnabled: false,
        savedView: null,
        workplane: null,
        clippingBox: null,
      },
      ids,
    );
    expect(plan.hidden).toEqual([]);
    expect(plan.selected).toEqual([1]);
    expect(plan.missing).toEqual(['gone']);
    expect(plan.view).toBeNull();
  });
  it('converts marker points between mm and m', () => {
    expect(pointToMetres([1500, -250, 3000])).toEqual({ x: 1.5, y: -0.25, z: 3 });
    expect(pointToMm({ x: 1.5, y: -0.25, z: 3 })).toEqual([1500, -250, 3000]);
  });
});
