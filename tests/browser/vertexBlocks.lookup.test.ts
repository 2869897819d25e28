/**
 * The chunk shader's vertex → object lookup (engine/scene/vertexBlocks.ts, scene/chunkMaterial.ts) in real
 * Chromium with SwiftShader WebGL2, on a chunk whose objects span more than 65,535 indices, so its block
 * table is the 32-bit texture (the 16-bit one is what every chunk of the generated ships in
 * occlusion.culling.test.ts uses). Selecting or hiding one object must change exactly that object's pixels:
 * a wrong base or texel would colour or hide another box, or none.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePackagePage } from './support/occlusionHarness';
import { decodeScenePackage } from '../../engine/package/reader';
import { alignObjectVertices } from '../../engine/scene/vertexBlocks';
import { boxMesh, packageBytes } from '../engine/scene/sceneFixtures';

const W = 320,
  H = 180;
/** Three boxes in a row, in one chunk; the last object index is 70,000 above the first. */
const OBJECTS = [3, 4, 70003];

interface Settled {
  pixels: string;
}

const page = usePackagePage('blocks', W, H, async (dir) => {
  const bytes = packageBytes(
    OBJECTS.map((o, i) => boxMesh(o, [i * 1500, 0, 0], [i * 1500 + 1000, 1000, 1000])),
    OBJECTS[2] + 1,
  );
  // The same code as the page's: one chunk, 32-bit block table.
  const { chunks } = decodeScenePackage(bytes);
  expect(chunks.length).toBe(1);
  expect(alignObjectVertices(chunks[0]).objects).toBeInstanceOf(Uint32Array);
  await writeFile(path.join(dir, 'ship.sc'), bytes);
});
const call = page.call;

/** RGB at canvas position (x, y), top-left origin (readPixels rows start at the bottom). */
function rgbAt(s: Settled, x: number, y: number): number[] {
  const px = Buffer.from(s.pixels, 'base64');
  const i = ((H - 1 - Math.floor(y)) * W + Math.floor(x)) * 4;
  return [px[i], px[i + 1], px[i + 2]];
}

/** The selection blue (shaded rgb(0, 151, 196)): blue well above red. */
const isBlue = (c: number[]) => c[2] > c[0] + 60 && c[1] > c[0] + 40;

describe('vertex → object lookup with a 32-bit block table', () => {
  it('colours and hides exactly the object asked for', async () => {
    // From high above: the boxes (500 mm apart) do not overlap on screen, so each one's pixels are its own.
    await call('view', 200, 80);
    // Where each box is the nearest pick (CPU picking, independent of the shader's lookup).
    const at = await Promise.all(OBJECTS.map((o) => call<[number, number][]>('pixelsOf', o, 8)));
    for (const a of at) expect(a.length).toBeGreaterThanOrEqual(3);
    const plain = await call<Settled>('settle', false);
    for (const a of at) for (const [x, y] of a) expect(isBlue(rgbAt(plain, x, y))).toBe(false);
    for (const [k, o] of OBJECTS.entries()) {
      await call('select', [o]);
      const s = await call<Settled>('settle', false);
      at.forEach((a, j) => {
        const blue = a.filter(([x, y]) => isBlue(rgbAt(s, x, y))).length;
        if (j === k) expect(blue).toBe(a.length);
        else expect(blue).toBe(0);
      });
    }
    await call('select', []);
    // Hiding the far object (index 70003) shows the background where it was; the others stay.
    await call('hide', [OBJECTS[2]], true);
    const hidden = await call<Settled>('settle', false);
    const same = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]) <= 8);
    expect(at[2].filter(([x, y]) => same(rgbAt(hidden, x, y), rgbAt(plain, x, y))).length).toBe(0);
    for (const j of [0, 1]) for (const [x, y] of at[j]) expect(rgbAt(hidden, x, y)).toEqual(rgbAt(plain, x, y));
    await call('hide', [OBJECTS[2]], false);
  });
});
