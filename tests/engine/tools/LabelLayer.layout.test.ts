import { describe, expect, it } from 'vitest';
import {
  LABEL_LIMITS,
  LabelLayer,
  layoutLabels,
  type CanvasFactory,
  type Text2D,
} from '../../../engine/tools/LabelLayer';

const measure = (text: string, px: number) => text.length * px * 0.5;

describe('label texture layout (font ≤ 128 px, width ≤ 4096 px)', () => {
  it('caps the font at 128 px', () => {
    const { placements } = layoutLabels(['abc'], 400, measure);
    expect(placements[0].fontPx).toBe(LABEL_LIMITS.maxFontPx);
  });
  it('shrinks the font of a long text so the texture stays within 4096 px', () => {
    const long = 'x'.repeat(200);
    const { placements, pages } = layoutLabels([long], 128, measure);
    expect(placements[0].width).toBeLessThanOrEqual(4096);
    expect(placements[0].fontPx).toBeLessThan(128);
    expect(pages[0].width).toBe(4096);
  });
  it('packs labels in shelves and opens a new page when one is full', () => {
    const texts = Array.from({ length: 2000 }, (_, i) => `PLATE-${i}`);
    const { placements, pages } = layoutLabels(texts, 128, measure);
    expect(pages.length).toBeGreaterThan(1);
    for (const p of placements) {
      expect(p.x + p.width).toBeLessThanOrEqual(4096);
      expect(p.y + p.height).toBeLessThanOrEqual(4096);
    }
    // No two labels of a page overlap.
    const a = placements[0],
      b = placements[1];
    expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
  });
  it('rasterises every label into its page through the canvas factory', () => {
    const drawn: string[] = [];
    const ctx: Text2D = {
      font: '',
      fillStyle: '',
      strokeStyle: '',
      lineWidth: 1,
      textBaseline: '',
      measureText: (t) => ({ width: t.length * 10 }),
      fillText: (t) => void drawn.push(t),
      strokeText: () => undefined,
    };
    const factory: CanvasFactory = (w, h) => ({ canvas: { width: w, height: h }, ctx });
    const layer = new LabelLayer('t', { canvas: factory });
    layer.set([
      { text: 'A', position: [0, 0, 0], heightMm: 200 },
      { text: 'BB', position: [1, 0, 0], heightMm: 100 },
    ]);
    expect(drawn).toEqual(['A', 'BB']);
    expect(layer.group.children.length).toBe(1);
    expect(() => layer.set([{ text: 'bad', position: [Number.NaN, 0, 0], heightMm: 1 }])).toThrow(/not finite/);
  });
});
