/**
 * Drawing only the visible object rows of a chunk the CPU culler keeps (ModelScene.rowOcclusionEnabled,
 * ChunkBatch.drawRows), in Node: one chunk holds a wall plate, boxes behind it and two boxes in front.
 * The full-quality frame draws the wall and the boxes in front by ranges and leaves the boxes behind out;
 * interactive frames, clipping, a hidden wall and the switch draw the chunk whole.
 */
import { describe, expect, it } from 'vitest';
import { type LineSegments, Plane, Vector3 } from 'three';
import type { ModelScene } from '../../../engine/scene/ModelScene';
import { drawnSegments } from '../../../engine/scene/edgeStrips';
import { boxMesh } from './sceneFixtures';
import { loadedScene, perspectiveView } from './modelSceneFixtures';

/**
 * Object 0: a 20 m × 10 m wall at x = 0; 1–40: 500 mm boxes behind it; 41: a 400 mm box in front;
 * 42–81: 300 mm boxes behind; 82: a 200 mm box in front. Size order keeps that order, so the hidden
 * boxes form two gaps of 40 boxes between the visible rows. One chunk.
 */
function scene(): ModelScene {
  const meshes = [boxMesh(0, [0, -10_000, -5000], [20, 10_000, 5000])];
  const box = (id: number, x: number, s: number) => {
    const y = -8000 + (id % 10) * 1700,
      z = -4000 + (Math.floor(id / 10) % 4) * 2000;
    meshes.push(boxMesh(id, [x, y, z], [x + s, y + s, z + s]));
  };
  for (let i = 1; i <= 40; i++) box(i, 2000 + (i % 4) * 1000, 500);
  box(41, -3000, 400);
  for (let i = 42; i <= 81; i++) box(i, 2000 + (i % 4) * 1000, 300);
  box(82, -3000, 200);
  return loadedScene(meshes, 83, 100_000);
}

const viewProjection = (eye: [number, number, number]) => perspectiveView(eye, [0, 0, 0]);

const px = () => 10;
const front = viewProjection([-25_000, 0, 0]);

/**
 * [start, count] of an object's row in the chunk's drawn (size-ordered) index buffer: its list part and its
 * strip part (scene/triangleStrips.ts; a box is one strip of 10 triangles and one end of 2 in the list).
 */
function rowRanges(m: ModelScene, object: number): [number, number][] {
  const o = m.chunks[0].chunk.objects;
  for (let r = 0; r * 5 < o.length; r++) if (o[r * 5] === object) return m.chunks[0].drawnRowRanges(r);
  throw new Error(`object ${object} has no row`);
}
/** Triangles of a box in the strip part. */
const STRIPPED = 10;
const groups = (m: ModelScene) => m.chunks[0].rowMesh.geometry.groups.map((g) => [g.start, g.count]);
const drawnWhole = (m: ModelScene) => {
  const c = m.chunks[0];
  return c.mesh.visible && !c.rowMesh.visible && !c.rowEdges?.visible;
};

describe('ModelScene drawing visible rows', () => {
  it('draws the wall and the boxes in front by ranges and leaves the boxes behind out', () => {
    const m = scene();
    expect(m.chunks.length).toBe(1);
    m.cull(front, px);
    const c = m.chunks[0];
    expect(m.isChunkOccluded(0)).toBe(false);
    expect(c.rowMesh.visible).toBe(true);
    expect(c.mesh.visible || c.lodMesh.visible).toBe(false);
    // Every box has both parts. The list part's hidden gaps (80 boxes' ends, 2 triangles each) are too
    // small for a draw call of their own: one range. The strip part: the three visible rows.
    const [wall, box41, box82] = [rowRanges(m, 0), rowRanges(m, 41), rowRanges(m, 82)];
    expect([wall.length, box41.length, box82.length]).toEqual([2, 2, 2]);
    expect(box41[0][1] + box41[1][1]).toBeLessThan(36);
    expect(groups(m)).toEqual([[0, 83 * (12 - STRIPPED) * 3], wall[1], box41[1], box82[1]]);
    expect(c.rowMesh.geometry.index).toBe(c.mesh.geometry.index);
    expect(m.trianglesRowOccluded).toBe(80 * STRIPPED);
    expect(m.trianglesDrawn).toBe(3 * 12 + 80 * (12 - STRIPPED));
    // The edges too: the 12 of each of the three visible objects, by three ranges.
    const e = c.rowEdges!;
    expect(e.visible && !c.edges!.visible).toBe(true);
    expect(e.geometry.groups.length).toBe(3);
    const index = e.geometry.index!.array;
    const segments = e.geometry.groups.flatMap((g) =>
      drawnSegments(index, g.start, g.start + g.count, !(e as LineSegments).isLineSegments),
    );
    expect(segments.length).toBe(3 * 12);
  });

  it('draws the chunk whole when nothing is hidden, while interactive, clipping, or switched off', () => {
    const m = scene();
    // From above: the wall is seen edge on and hides nothing.
    m.cull(viewProjection([-1000, 0, 30_000]), px);
    expect(drawnWhole(m)).toBe(true);

    m.setVisibility([0], false);
    m.cull(front, px);
    expect(drawnWhole(m)).toBe(true);
    expect(m.trianglesRowOccluded).toBe(0);
    m.setVisibility([0], true);

    m.interactive = true;
    m.cull(front, px);
    expect(drawnWhole(m)).toBe(true);
    m.interactive = false;

    m.setClippingPlanes([new Plane(new Vector3(-1, 0, 0), 5000)]);
    m.cull(front, px);
    expect(drawnWhole(m)).toBe(true);
    m.setClippingPlanes(null);

    m.rowOcclusionEnabled = false;
    m.cull(front, px);
    expect(drawnWhole(m)).toBe(true);
    expect(m.trianglesDrawn).toBe(83 * 12);
    m.rowOcclusionEnabled = true;

    m.cull(front, px);
    expect(drawnWhole(m)).toBe(false);
    expect(m.trianglesDrawn).toBe(3 * 12 + 80 * (12 - STRIPPED));
  });
});
