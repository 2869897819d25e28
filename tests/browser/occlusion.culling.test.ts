import { describe, expect, it } from 'vitest';
import { usePackagePage, writeGeneratedShip } from './support/occlusionHarness';
import type { ClipBox } from '../../engine/EngineApi';

const W = 640,
  H = 360;
/** Pixels whose RGB differs by more than this sum count as different (MSAA edges of equal images stay below). */
const COLOUR_TOLERANCE = 24;
/**
 * Differing pixels allowed between culling on and off, counted after erosion (a pixel counts only when
 * its 8 neighbours differ too): two draws of the same scene already differ in a few pixels along edges
 * (coincident edge lines and surfaces, LOD levels built in a different order), and the box test is
 * exact up to about one pixel at an occluder's silhouette (polygon offset, chunkOcclusion.ts); such
 * one-pixel seams vanish under erosion, while a missing part of 3 × 3 pixels or more does not.
 */
const MAX_DIFFERING = 0;

interface Settled {
  pixels: string;
  occluded: number[];
  frames: number;
  rowTriangles: number;
}

const page = usePackagePage('occlusion', W, H, (dir) =>
  // Small chunks: the shell then hides whole chunks of inner structure at every view.
  writeGeneratedShip(dir, 1500),
);
const call = page.call;

/** Number of pixels whose colour differs beyond COLOUR_TOLERANCE and whose 8 neighbours differ too. */
function differing(a: Settled, b: Settled): number {
  const x = Buffer.from(a.pixels, 'base64'),
    y = Buffer.from(b.pixels, 'base64');
  expect(x.length).toBe(W * H * 4);
  const diff = new Uint8Array(W * H);
  let raw = 0;
  for (let p = 0; p < W * H; p++) {
    const i = p * 4;
    const d = Math.abs(x[i] - y[i]) + Math.abs(x[i + 1] - y[i + 1]) + Math.abs(x[i + 2] - y[i + 2]);
    if (d > COLOUR_TOLERANCE) {
      diff[p] = 1;
      raw++;
    }
  }
  let n = 0;
  for (let r = 1; r < H - 1; r++)
    for (let c = 1; c < W - 1; c++) {
      let all = 1;
      for (let dr = -1; dr <= 1 && all; dr++) for (let dc = -1; dc <= 1 && all; dc++) all = diff[(r + dr) * W + c + dc];
      n += all;
    }
  expect(raw).toBeLessThan(W * H);
  return n;
}

/** Pixels of the selection blue (blue well above red, shaded rgb(0, 151, 196)). */
function blue(s: Settled): number {
  const px = Buffer.from(s.pixels, 'base64');
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i + 2] > px[i] + 60 && px[i + 1] > px[i] + 40) n++;
  return n;
}

/** RGB at canvas position (x, y), top-left origin (readPixels rows start at the bottom). */
function rgbAt(s: Settled, x: number, y: number): number[] {
  const px = Buffer.from(s.pixels, 'base64');
  const i = ((H - 1 - Math.floor(y)) * W + Math.floor(x)) * 4;
  return [px[i], px[i + 1], px[i + 2]];
}

type Culling = 'queries' | 'cpu';

/** Settles the view with culling off and on (by `mode`); returns both. */
async function both(mode: Culling): Promise<{ off: Settled; on: Settled }> {
  const off = await call<Settled>('settle', 'off');
  const on = await call<Settled>('settle', mode);
  return { off, on };
}

describe.each(['queries', 'cpu'] as const)('occlusion culling of chunks by %s', (mode) => {
  it('drops chunks hidden behind the shell and draws the same picture as without culling', async () => {
    expect(page.chunkCount()).toBeGreaterThan(20);
    await call('view', 160, 10);
    const { off, on } = await both(mode);
    expect(off.occluded).toEqual([]);
    expect(on.occluded.length).toBeGreaterThan(0);
    // The CPU culler also leaves hidden objects out of the chunks it draws.
    if (mode === 'cpu') expect(on.rowTriangles).toBeGreaterThan(0);
    expect(off.rowTriangles).toBe(0);
    expect(differing(on, off)).toBeLessThanOrEqual(MAX_DIFFERING);
    // A part seen at this view keeps its pixels: objects of the drawn chunks, found by picking. (A drawn
    // chunk may hold only objects hidden at this view: the chunks are walked until some are seen.)
    const drawn = [...Array(page.chunkCount()).keys()].filter((i) => !on.occluded.includes(i));
    let checked = 0;
    let changed = 0;
    for (const chunk of drawn) {
      for (const id of (await call<number[]>('chunkObjects', chunk)).slice(0, 40)) {
        const at = await call<[number, number][]>('pixelsOf', id, 16);
        for (const [x, y] of at) {
          const [a, b] = [rgbAt(on, x, y), rgbAt(off, x, y)];
          if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > COLOUR_TOLERANCE) changed++;
          checked++;
        }
        if (checked > 20) break;
      }
      if (checked > 20) break;
    }
    expect(checked).toBeGreaterThan(20);
    // A sampled point may sit on the part's silhouette, where coincident faces of neighbouring parts win by
    // draw order; a dropped part would change them all.
    expect(changed, `${changed} of ${checked} sampled pixels changed`).toBeLessThanOrEqual(Math.floor(checked / 10));
  });

  it('brings culled chunks back when the camera moves to the other side', async () => {
    await call('view', 160, 10);
    const first = await call<Settled>('settle', mode);
    expect(first.occluded.length).toBeGreaterThan(0);
    // One dragged frame: what is dropped now is at most what the last answers dropped.
    const dragging = await call<number[]>('dragFrame', 90);
    // Queries answer a frame late, so a dragged frame drops at most what the last answers dropped; the CPU
    // culler decides each frame for its own view.
    if (mode === 'queries') expect(dragging.every((i) => first.occluded.includes(i))).toBe(true);
    await call('view', 340, 10);
    const { off, on } = await both(mode);
    const back = first.occluded.filter((i) => !on.occluded.includes(i));
    expect(back.length).toBeGreaterThan(0);
    expect(differing(on, off)).toBeLessThanOrEqual(MAX_DIFFERING);
  });

  it('brings culled chunks back when the objects hiding them are hidden', async () => {
    await call('view', 160, 10);
    const before = await call<Settled>('settle', mode);
    const front = [...Array(page.chunkCount()).keys()].filter((i) => !before.occluded.includes(i));
    const frontObjects = (await Promise.all(front.map((i) => call<number[]>('chunkObjects', i)))).flat();
    await call('hide', frontObjects, true);
    const { off, on } = await both(mode);
    expect(before.occluded.some((i) => !on.occluded.includes(i))).toBe(true);
    expect(differing(on, off)).toBeLessThanOrEqual(MAX_DIFFERING);
    await call('hide', frontObjects, false);
  });

  it('keeps the selection highlight and clipping as they are without culling', async () => {
    await call('view', 160, 10);
    const plain = await call<Settled>('settle', mode);
    const drawn = [...Array(page.chunkCount()).keys()].filter((i) => !plain.occluded.includes(i));
    let target: { id: number; at: [number, number][] } | null = null;
    for (const c of drawn) {
      for (const id of (await call<number[]>('chunkObjects', c)).slice(0, 30)) {
        const at = await call<[number, number][]>('pixelsOf', id, 12);
        if (at.length >= 4) {
          target = { id, at };
          break;
        }
      }
      if (target) break;
    }
    expect(target).not.toBeNull();
    await call('select', [target!.id]);
    const { off, on } = await both(mode);
    // The selected part shows the highlight (selection blue, rgb(0, 151, 196) shaded) with culling on.
    expect(blue(on)).toBeGreaterThan(blue(plain) + target!.at.length);
    expect(differing(on, off)).toBeLessThanOrEqual(MAX_DIFFERING);
    await call('select', []);

    const b = await call<number[]>('modelBounds');
    const box: ClipBox = {
      xMin: b[0] - 1,
      xMax: (b[0] + b[3]) / 2,
      yMin: b[1] - 1,
      yMax: b[4] + 1,
      zMin: b[2] - 1,
      zMax: b[5] + 1,
    };
    await call('clip', box);
    const clipped = await both(mode);
    // While clipping the caps need every cut solid: culling stands aside.
    expect(clipped.on.occluded).toEqual([]);
    expect(differing(clipped.on, clipped.off)).toBeLessThanOrEqual(MAX_DIFFERING);
    await call('clip', null);
  });
});
