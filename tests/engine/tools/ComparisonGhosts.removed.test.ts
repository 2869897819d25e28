import { describe, expect, it } from 'vitest';
import { type Mesh, Scene } from 'three';
import { ComparisonGhosts, GhostBuffers } from '../../../engine/tools/ComparisonGhosts';
import { ScenePackageReader } from '../../../engine/package/reader';
import type { SceneChunk } from '../../../engine/package/types';
import type { ToolHost } from '../../../engine/tools/ToolHost';
import { fakeFetch } from '../scene/sceneFixtures';
import { loadedSideView, sx, sy, twoPanelBytes, twoPanelMeshes, twoPanelTable } from '../scene/engineFixtures';

/** The chunks of a package, decoded. */
function chunksOf(bytes: Uint8Array): SceneChunk[] {
  const out: SceneChunk[] = [];
  const reader = new ScenePackageReader();
  for (const e of reader.push(bytes)) if (e.type === 'chunk') out.push(e.chunk);
  return out;
}

const host = (scene: Scene): ToolHost =>
  ({ scene, model: () => null, invalidate() {}, emit() {}, now: () => 0 }) as unknown as ToolHost;

describe('ghosts of removed parts (comparison, earlier revision)', () => {
  it('keeps only the wanted objects, in world millimetres, with their triangles', () => {
    const b = new GhostBuffers();
    for (const c of chunksOf(twoPanelBytes)) b.addChunk(c, new Set([2, 4]));
    expect([...b.found].sort()).toEqual([2, 4]);
    const want = twoPanelMeshes.filter((m) => m.object === 2 || m.object === 4);
    expect(b.indices.length).toBe(want.reduce((n, m) => n + m.indices.length, 0));
    const xs = b.positions.filter((_, i) => i % 3 === 0);
    // Boxes 2 (x 2000..3000) and 4 (x 4000..5000), within the 16-bit quantisation step.
    expect(Math.min(...xs)).toBeCloseTo(2000, 0);
    expect(Math.max(...xs)).toBeCloseTo(5000, 0);
    for (const i of b.indices) expect(i).toBeLessThan(b.positions.length / 3);
    for (const i of b.edges) expect(i).toBeLessThan(b.positions.length / 3);
  });

  it('draws them in the scene from a streamed package, replaces and clears them', async () => {
    const scene = new Scene();
    const ghosts = new ComparisonGhosts(host(scene), fakeFetch(twoPanelBytes));
    expect(await ghosts.show('/old.sc', {}, Uint32Array.of(1, 5, 77))).toBe(2);
    const group = scene.getObjectByName('comparison ghosts')!;
    const mesh = group.getObjectByName('removed parts') as Mesh;
    mesh.geometry.computeBoundingBox();
    const box = mesh.geometry.boundingBox!;
    expect([box.min.x, box.max.x, box.min.y, box.max.y].map(Math.round)).toEqual([0, 1000, 0, 3000]);
    expect(await ghosts.show('/old.sc', {}, Uint32Array.of(4))).toBe(1);
    expect(scene.children.filter((c) => c.name === 'comparison ghosts')).toHaveLength(1);
    ghosts.clear();
    expect(scene.getObjectByName('comparison ghosts')).toBeUndefined();
    expect(ghosts.count).toBe(0);
  });

  it('is not picked: a hidden part with a ghost over it is a miss', async () => {
    const { engine } = await loadedSideView(twoPanelBytes, twoPanelTable);
    const at: [number, number] = [sx(4500), sy(500)];
    expect(engine.pick(...at)).toMatchObject({ type: 'hit', nodeId: 4 });
    engine.setVisibility([4], false);
    expect(await engine.showComparisonGhosts('/old.sc', {}, Uint32Array.of(4))).toBe(1);
    expect(engine.pick(...at)).toEqual({ type: 'miss' });
    engine.clearComparisonGhosts();
  });

  it('rejects with the loader’s message when the earlier package is missing', async () => {
    const ghosts = new ComparisonGhosts(host(new Scene()), fakeFetch(twoPanelBytes, { status: 404 }));
    await expect(ghosts.show('/gone.sc', {}, Uint32Array.of(1))).rejects.toThrow('Loading model failed: HTTP 404');
  });
});
