/**
 * CPU occlusion culling of chunks in ModelScene.cull (engine/render/softOcclusion.ts), in Node: a wall
 * plate in front of small parts in chunks of their own; the chunks wholly behind the wall are dropped,
 * and come back as soon as the wall no longer hides them (hidden, see-through, clipped, camera moved).
 */
import { describe, expect, it } from 'vitest';
import { Plane, Vector3 } from 'three';
import type { ModelScene } from '../../../engine/scene/ModelScene';
import { boxMesh } from './sceneFixtures';
import { loadedScene, perspectiveView } from './modelSceneFixtures';

/** Object 0: a 20 m × 10 m wall at x = 0; objects 1..40: 300 mm boxes behind it (x 2–8 m), in small chunks. */
function scene(): ModelScene {
  const meshes = [boxMesh(0, [0, -10_000, -5000], [20, 10_000, 5000])];
  for (let i = 1; i <= 40; i++) {
    const x = 2000 + (i % 4) * 2000,
      y = -8000 + (i % 10) * 1700,
      z = -4000 + Math.floor(i / 10) * 2000;
    meshes.push(boxMesh(i, [x, y, z], [x + 300, y + 300, z + 300]));
  }
  return loadedScene(meshes, 41, 48);
}

const viewProjection = (eye: [number, number, number]) => perspectiveView(eye, [4000, 0, 0]);

const px = () => 10;
const front = viewProjection([-25_000, 0, 0]);
/** The chunks holding only boxes (not the wall). */
const boxChunks = (m: ModelScene) =>
  m.chunks.flatMap((c, i) => (c.chunk.objects.some((_, r) => r % 5 === 0 && c.chunk.objects[r] === 0) ? [] : [i]));
const dropped = (m: ModelScene) => m.chunks.flatMap((_, i) => (m.isChunkOccluded(i) ? [i] : []));

describe('ModelScene CPU occlusion culling', () => {
  it('drops the chunks behind the wall and draws them again when the wall is hidden or see-through', () => {
    const m = scene();
    expect(boxChunks(m).length).toBeGreaterThan(2);
    m.cull(front, px);
    const behind = boxChunks(m);
    expect(dropped(m)).toEqual(behind);
    expect(m.chunksSoftOccluded).toBe(behind.length);
    expect(m.chunksOccluded).toBe(behind.length);
    for (const i of behind) expect(m.chunks[i].mesh.visible || m.chunks[i].lodMesh.visible).toBe(false);
    const trianglesOn = m.trianglesDrawn;

    m.softOcclusionEnabled = false;
    m.cull(front, px);
    expect(dropped(m)).toEqual([]);
    expect(m.trianglesDrawn).toBeGreaterThan(trianglesOn);
    m.softOcclusionEnabled = true;

    m.setVisibility([0], false);
    m.cull(front, px);
    expect(dropped(m)).toEqual([]);
    m.setVisibility([0], true);

    m.setOpacity([0], 0.5);
    m.cull(front, px);
    expect(dropped(m)).toEqual([]);
    m.setOpacity([0], 1);

    m.cull(front, px);
    expect(dropped(m)).toEqual(behind);
  });

  it('draws everything seen from behind the boxes, while clipping and while interactive detail is on', () => {
    const m = scene();
    m.cull(viewProjection([30_000, 0, 0]), px);
    expect(dropped(m)).toEqual([]);

    m.setClippingPlanes([new Plane(new Vector3(1, 0, 0), 1000)]);
    m.cull(front, px);
    expect(dropped(m)).toEqual([]);
    m.setClippingPlanes(null);

    m.interactive = true;
    m.cull(front, px);
    expect(dropped(m)).toEqual(boxChunks(m));
  });
});
