/**
 * Revision thumbnail (Node only): renders the model with engine/render/softRaster.ts at the viewer's
 * opening orbit (160°, 10°) into 160 × 120 pixels and encodes it as PNG with pngjs.
 */
import { PNG } from 'pngjs';
import type { Box3Tuple, PartMesh } from '../../model/types';
import { type SoftRasterOptions, renderThumbnail } from '../../render/softRaster';

/** Encodes an RGBA image (4 bytes per pixel, row-major from the top left) as a PNG file's bytes. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  if (rgba.length !== width * height * 4)
    throw new Error(`PNG encode: ${rgba.length} bytes for ${width} × ${height} RGBA pixels`);
  const png = new PNG({ width, height });
  png.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  return PNG.sync.write(png);
}

/** Renders and encodes the thumbnail; returns the PNG bytes. Meshes in world mm; bounds default to the meshes'. */
export function thumbnailPng(meshes: PartMesh[], bounds?: Box3Tuple, options?: SoftRasterOptions): Buffer {
  const img = renderThumbnail(meshes, bounds, options);
  return encodePng(img.width, img.height, img.rgba);
}

/** The thumbnail as base64 PNG (no data: prefix), e.g. for a JSON response. */
export function thumbnailBase64(meshes: PartMesh[], bounds?: Box3Tuple, options?: SoftRasterOptions): string {
  return thumbnailPng(meshes, bounds, options).toString('base64');
}
