/**
 * Compartment purpose colours for sections (viewer.md §3 "Compartment section: ... purposeColor (r,g,b)";
 * GET .../ship-model/purpose-colors). Well-known purposes have fixed colours; any other purpose gets a
 * stable colour from a hash of its upper-cased name. Channels 0..255.
 */

/** An RGB colour, channels 0..255. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** Fixed colours of common tank and space purposes (matched on the upper-cased purpose containing the key). */
export const PURPOSE_COLORS: ReadonlyArray<[string, Rgb]> = [
  ['BALLAST', { r: 76, g: 175, b: 80 }],
  ['FRESH WATER', { r: 33, g: 150, b: 243 }],
  ['FUEL', { r: 121, g: 85, b: 72 }],
  ['LUB', { r: 255, g: 193, b: 7 }],
  ['CARGO', { r: 255, g: 152, b: 0 }],
  ['VOID', { r: 189, g: 189, b: 189 }],
  ['COFFERDAM', { r: 158, g: 158, b: 158 }],
  ['ENGINE', { r: 244, g: 67, b: 54 }],
  ['ACCOMMODATION', { r: 156, g: 39, b: 176 }],
];

/** Colour of a purpose; undefined or empty → grey (160,160,160). */
export function purposeColor(purpose: string | undefined): Rgb {
  const p = (purpose ?? '').trim().toUpperCase();
  if (!p) return { r: 160, g: 160, b: 160 };
  for (const [key, c] of PURPOSE_COLORS) if (p.includes(key)) return { ...c };
  let h = 0;
  for (let i = 0; i < p.length; i++) h = (h * 31 + p.charCodeAt(i)) | 0;
  return hslToRgb(((h % 360) + 360) % 360, 0.55, 0.6);
}

function hslToRgb(h: number, s: number, l: number): Rgb {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  return { r: Math.round((r + m) * 255), g: Math.round((g + m) * 255), b: Math.round((b + m) * 255) };
}
