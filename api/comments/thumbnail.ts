/**
 * Server-made thumbnails of image attachments (viewer.md §7 GET /attachment-thumbnail-data): a PNG or JPEG
 * is decoded (pngjs / jpeg-js), scaled down by area averaging to fit THUMBNAIL_BOX and written as PNG.
 * Other files, and images too large to decode safely, get no thumbnail.
 */
import { readFile } from 'node:fs/promises';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** The box a thumbnail fits in, pixels (aspect kept, never enlarged). */
export const THUMBNAIL_BOX = { width: 320, height: 240 } as const;
/** Largest image file decoded for a thumbnail, bytes; largest decoded image, megapixels. */
export const THUMBNAIL_MAX_FILE_BYTES = 64 * 1024 * 1024;
export const THUMBNAIL_MAX_MEGAPIXELS = 100;

type Rgba = { width: number; height: number; data: Uint8Array };

/** 'png' | 'jpeg' from the first bytes of a file, or null for anything else. */
export function imageKind(head: Uint8Array): 'png' | 'jpeg' | null {
  if (head.length >= 8 && head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  return null;
}

function decode(bytes: Buffer): Rgba | null {
  const kind = imageKind(bytes);
  if (kind === 'png') {
    const png = PNG.sync.read(bytes);
    if ((png.width * png.height) / 1e6 > THUMBNAIL_MAX_MEGAPIXELS) return null;
    return { width: png.width, height: png.height, data: png.data };
  }
  if (kind === 'jpeg') {
    const img = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: THUMBNAIL_MAX_MEGAPIXELS,
      maxMemoryUsageInMB: 1024,
    });
    return { width: img.width, height: img.height, data: img.data };
  }
  return null;
}

/** Scales an RGBA image down to fit `box` by averaging the source pixels each target pixel covers. */
export function scaleDown(src: Rgba, box: { width: number; height: number } = THUMBNAIL_BOX): Rgba {
  const f = Math.min(1, box.width / src.width, box.height / src.height);
  const width = Math.max(1, Math.round(src.width * f));
  const height = Math.max(1, Math.round(src.height * f));
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * src.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * src.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * src.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * src.width) / width));
      const sum = [0, 0, 0, 0];
      for (let sy = y0; sy < y1; sy++)
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * src.width + sx) * 4;
          for (let c = 0; c < 4; c++) sum[c] += src.data[i + c];
        }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * width + x) * 4;
      for (let c = 0; c < 4; c++) data[o + c] = Math.round(sum[c] / n);
    }
  }
  return { width, height, data };
}

/** Encodes RGBA as PNG. */
export function encodePng(img: Rgba): Buffer {
  const png = new PNG({ width: img.width, height: img.height });
  png.data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  return PNG.sync.write(png);
}

/**
 * The PNG thumbnail of the image file at `file`, or null when it is no PNG/JPEG, too large, or unreadable
 * (a broken image is stored as a plain file, not refused).
 */
export async function makeThumbnail(file: string, size: number): Promise<Buffer | null> {
  if (size > THUMBNAIL_MAX_FILE_BYTES) return null;
  try {
    const img = decode(await readFile(file));
    return img ? encodePng(scaleDown(img)) : null;
  } catch {
    return null;
  }
}
