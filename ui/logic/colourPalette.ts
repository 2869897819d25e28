/**
 * Stable colours for colouring by quantities (application.md §4 "Coloring"; issue: "colours stable for
 * the same value across sessions"). A value's colour comes from a hash of its key (quantity code + value
 * label, e.g. 'PLTH=12.0 mm') into a fixed palette of well separated colours, so the same thickness is
 * the same colour tomorrow and on another machine. Two keys that hash to the same slot are resolved
 * deterministically: keys are taken in (hash, key) order and a taken slot passes to the next free one;
 * beyond the palette, colours come from the hash on a golden-angle hue wheel.
 */

/** An sRGB colour, bytes 0..255. */
export type Rgb = [number, number, number];

/**
 * The palette: 20 qualitative colours (after Kelly and Tableau), none close to the model's steel greys
 * (engine/scene/typeColors.ts), to the comparison colours (0,204,255) / (0,255,0) or to the selection.
 */
export const COLOUR_PALETTE: readonly Rgb[] = [
  [230, 25, 75],
  [60, 180, 75],
  [255, 200, 20],
  [0, 110, 200],
  [245, 130, 48],
  [145, 30, 180],
  [70, 210, 210],
  [240, 50, 230],
  [160, 210, 40],
  [250, 160, 170],
  [0, 128, 128],
  [190, 140, 255],
  [154, 99, 36],
  [255, 240, 150],
  [128, 0, 0],
  [120, 255, 180],
  [128, 128, 0],
  [255, 190, 120],
  [0, 0, 128],
  [100, 65, 190],
];

/** FNV-1a 32-bit hash of a string (UTF-16 code units), as an unsigned integer. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A colour off the palette for a hash: golden-angle hue, mid saturation and lightness. */
function extraColour(hash: number, round: number): Rgb {
  const hue = ((hash % 360) + round * 137.508) % 360;
  return hslToRgb(hue, 0.65, 0.5 + ((hash >>> 9) % 3) * 0.08);
}

/**
 * Colours for a set of value keys. The same set of keys always gives the same colours; a key's colour
 * depends only on its hash unless another key of the set collides with it.
 * @returns a colour per key (keys given more than once get one colour).
 */
export function stableColours(keys: Iterable<string>): Map<string, Rgb> {
  const unique = [...new Set(keys)];
  const hashed = unique.map((key) => ({ key, hash: hashKey(key) }));
  hashed.sort((a, b) => a.hash - b.hash || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const n = COLOUR_PALETTE.length;
  const taken = new Array<boolean>(n).fill(false);
  let free = n;
  const out = new Map<string, Rgb>();
  let extras = 0;
  for (const { key, hash } of hashed) {
    if (free === 0) {
      out.set(key, extraColour(hash, extras++));
      continue;
    }
    let slot = hash % n;
    while (taken[slot]) slot = (slot + 1) % n;
    taken[slot] = true;
    free--;
    out.set(key, [...COLOUR_PALETTE[slot]] as Rgb);
  }
  return out;
}

/** HSL (hue degrees, saturation and lightness 0..1) to sRGB bytes. */
export function hslToRgb(h: number, s: number, l: number): Rgb {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const k = Math.floor((((h % 360) + 360) % 360) / 60);
  const [r, g, b] = [
    [c, x, 0],
    [x, c, 0],
    [0, c, x],
    [0, x, c],
    [x, 0, c],
    [c, 0, x],
  ][k];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

/** '#rrggbb' of a colour (legend swatches). */
export function rgbHex(c: readonly [number, number, number]): string {
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}
