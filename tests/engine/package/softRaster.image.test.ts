import { describe, expect, it } from 'vitest';
import type { PartMesh } from '../../../engine/model/types';
import { orbitBasis, renderThumbnail } from '../../../engine/render/softRaster';

/** Axis-aligned box mesh (12 triangles) from min corner and sizes, mm. */
function boxMesh(object: number, x: number, y: number, z: number, dx: number, dy: number, dz: number): PartMesh {
  const p: number[] = [];
  for (let i = 0; i < 8; i++) p.push(x + (i & 1 ? dx : 0), y + (i & 2 ? dy : 0), z + (i & 4 ? dz : 0));
  const f = [
    0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3,
  ];
  return { object, positions: Float32Array.from(p), normals: null, indices: Uint32Array.from(f), edges: null };
}

const isBackground = (rgba: Uint8Array, i: number) =>
  rgba[i * 4] === 236 && rgba[i * 4 + 1] === 239 && rgba[i * 4 + 2] === 243;

describe('soft rasteriser', () => {
  it('uses the viewer orbit convention: (180, 0) looks along +X, (90, -90) along +Z', () => {
    const a = orbitBasis(180, 0);
    expect(a.back[0]).toBeCloseTo(-1); // camera on the -X side looking towards +X
    expect(a.up[2]).toBeCloseTo(1);
    const z = orbitBasis(90, -90);
    expect(z.back[2]).toBeCloseTo(-1);
  });

  it('draws a front-on box as a centred filled rectangle with the expected aspect', () => {
    // Looking along +X at a box 100 (Y) × 50 (Z): the silhouette is a 2:1 rectangle fitted into 160 × 120 - margins.
    const img = renderThumbnail([boxMesh(0, 0, 0, 0, 1000, 100, 50)], undefined, {
      longitudeDeg: 180,
      latitudeDeg: 0,
      marginPx: 10,
    });
    let minX = Infinity,
      maxX = -1,
      minY = Infinity,
      maxY = -1,
      covered = 0;
    for (let y = 0; y < 120; y++)
      for (let x = 0; x < 160; x++)
        if (!isBackground(img.rgba, y * 160 + x)) {
          covered++;
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
          minY = Math.min(minY, y);
          maxY = Math.max(maxY, y);
        }
    // Width-limited fit: 140 px wide, 70 px high, centred.
    expect(maxX - minX + 1).toBeGreaterThanOrEqual(139);
    expect(maxX - minX + 1).toBeLessThanOrEqual(141);
    expect(maxY - minY + 1).toBeGreaterThanOrEqual(69);
    expect(maxY - minY + 1).toBeLessThanOrEqual(71);
    expect(Math.abs((minX + maxX) / 2 - 79.5)).toBeLessThanOrEqual(1);
    expect(Math.abs((minY + maxY) / 2 - 59.5)).toBeLessThanOrEqual(1);
    expect(covered).toBeGreaterThanOrEqual(0.97 * 140 * 70); // a filled rectangle, no holes
  });

  it('renders a ship-like model at (160, 10): not uniform, sensible coverage, nearer faces win', () => {
    const meshes = [
      boxMesh(0, 0, -10_000, 0, 100_000, 20_000, 12_000),
      boxMesh(1, 80_000, -8000, 12_000, 10_000, 16_000, 8000),
    ];
    const img = renderThumbnail(meshes);
    expect(img.rgba.length).toBe(160 * 120 * 4);
    let covered = 0;
    const shades = new Set<number>();
    for (let i = 0; i < 160 * 120; i++)
      if (!isBackground(img.rgba, i)) {
        covered++;
        shades.add(img.rgba[i * 4]);
      }
    expect(covered / (160 * 120)).toBeGreaterThan(0.2);
    expect(covered / (160 * 120)).toBeLessThan(0.95);
    expect(shades.size).toBeGreaterThanOrEqual(2); // several faces with different Lambert shading
  });

  it('gives a uniform background for an empty model and rejects a bad size', () => {
    const img = renderThumbnail([]);
    for (let i = 0; i < 160 * 120; i++) expect(isBackground(img.rgba, i)).toBe(true);
    expect(() => renderThumbnail([], undefined, { width: 0 })).toThrow(
      'Thumbnail size must be positive integers, got 0 × 120',
    );
  });
});
