import { describe, expect, it } from 'vitest';
import {
  LABEL_LIMITS,
  LabelLayer,
  layoutLabels,
  screenLabelRect,
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

describe('screen-sized labels (annotations: CSS px, inside the canvas)', () => {
  const size = { minPx: 20, maxPx: 32 };
  const vp = [1366, 768] as const;
  it('keeps the projected height within the px range', () => {
    // 200 mm at 100 mm/px would be 2 px: raised to 20 px; 200 mm at 1 mm/px would be 200 px: capped at 32.
    expect(screenLabelRect([500, 400], 2, 4, [0, 0], size, vp)).toEqual([460, 390, 540, 410]);
    expect(screenLabelRect([500, 400], 200, 4, [0, 0], size, vp)).toEqual([436, 384, 564, 416]);
    expect(screenLabelRect([500, 400], 25, 2, [0, 0], size, vp)).toEqual([475, 387.5, 525, 412.5]);
  });
  it('moves a label at the canvas edge inside, whole', () => {
    const left = screenLabelRect([3, 760], 2, 5, [0, 0], size, vp)!;
    expect(left).toEqual([0, 748, 100, 768]);
    const right = screenLabelRect([1366, 0], 2, 5, [0, 0], size, vp)!;
    expect(right).toEqual([1266, 0, 1366, 20]);
    // The shift (box heights, y up) applies before the move inside.
    expect(screenLabelRect([500, 400], 2, 1, [1, 1], size, vp)).toEqual([510, 370, 530, 390]);
  });
  it('draws nothing for an anchor off the canvas', () => {
    expect(screenLabelRect([-1, 400], 2, 4, [0, 0], size, vp)).toBeNull();
    expect(screenLabelRect([500, 769], 2, 4, [0, 0], size, vp)).toBeNull();
  });
});
