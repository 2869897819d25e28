/**
 * The per-object state table (ARCHITECTURE.md "The `.sc` package": objects are hidden, coloured or
 * highlighted "by writing a small per-object table, never by rebuilding geometry"). One byte of flags and
 * one sRGB colour per object (node id), mirrored into two data textures that the chunk shaders read with
 * texelFetch at the vertex's object index (see ./chunkMaterial.ts). The CPU side is also what picking
 * consults to skip hidden objects. Works in Node (three's DataTexture needs no renderer).
 */
import { DataTexture, RedFormat, RGBAFormat, SRGBColorSpace, UnsignedByteType, NearestFilter } from 'three';

/** Flag bits of the state byte (also used in the shader). */
/** noCap: the object is not steel (a compartment space) and fills no clipping cap (scene/ClipCaps.ts). */
export const OBJECT_FLAGS = { hidden: 1, selected: 2, hover: 4, noCap: 8 } as const;

/** Texels per texture row; the texture is TEXTURE_ROW × ceil(n / TEXTURE_ROW). */
export const TEXTURE_ROW = 2048;

/** Default object colour (sRGB bytes): light steel grey. */
export const DEFAULT_OBJECT_COLOR: readonly [number, number, number] = [178, 184, 190];

/** Per-object flags and colours for objects 0..count-1, with their GPU textures. */
export class ObjectStateTable {
  readonly count: number;
  readonly flags: Uint8Array;
  readonly colors: Uint8Array;
  readonly flagTexture: DataTexture;
  readonly colorTexture: DataTexture;
  /** Bumped on every write; lets the renderer know a redraw is due. */
  version = 0;
  private translucent = 0;
  /** Objects carrying a bit as last written by replaceFlag (so the next replace clears just those). */
  private readonly members = new Map<number, number[]>();
  /** One byte per object for replaceFlag's marks (all zero between calls). */
  private scratch: Uint8Array | null = null;

  /** @throws Error when count is not a non-negative integer. */
  constructor(count: number) {
    if (!(Number.isInteger(count) && count >= 0)) throw new Error(`ObjectStateTable: invalid object count ${count}`);
    this.count = count;
    const rows = Math.max(1, Math.ceil(count / TEXTURE_ROW));
    const texels = rows * TEXTURE_ROW;
    this.flags = new Uint8Array(texels);
    this.colors = new Uint8Array(texels * 4);
    for (let i = 0; i < texels; i++) this.colors.set([...DEFAULT_OBJECT_COLOR, 255], i * 4);
    this.flagTexture = makeTexture(this.flags, rows, RedFormat);
    this.colorTexture = makeTexture(this.colors, rows, RGBAFormat);
    this.colorTexture.colorSpace = SRGBColorSpace;
  }

  /** True when object `i` is hidden (out-of-range ids count as hidden: they cannot be shown or picked). */
  isHidden(i: number): boolean {
    return !(i >= 0 && i < this.count) || (this.flags[i] & OBJECT_FLAGS.hidden) !== 0;
  }

  /** True when object `i` is selected. */
  isSelected(i: number): boolean {
    return i >= 0 && i < this.count && (this.flags[i] & OBJECT_FLAGS.selected) !== 0;
  }

  /** Sets or clears `bit` on the given objects; ids outside 0..count-1 are ignored. Returns how many changed. */
  setFlag(ids: Iterable<number>, bit: number, on: boolean): number {
    this.members.delete(bit);
    let changed = 0;
    for (const i of ids) {
      if (!(Number.isInteger(i) && i >= 0 && i < this.count)) continue;
      const before = this.flags[i];
      this.flags[i] = on ? before | bit : before & ~bit;
      if (this.flags[i] !== before) changed++;
    }
    if (changed) this.touchFlags();
    return changed;
  }

  /**
   * Makes exactly `ids` carry `bit` (clears it everywhere else). Returns how many changed. Costs
   * O(previous + new ids) when the bit was last written by replaceFlag (selection, hover), else one
   * pass over the table; no per-id garbage (a box selection may replace thousands of ids).
   */
  replaceFlag(ids: Iterable<number>, bit: number): number {
    const next: number[] = [];
    for (const i of ids) if (Number.isInteger(i) && i >= 0 && i < this.count) next.push(i);
    const prev = this.members.get(bit);
    const f = this.flags;
    // Objects keeping the bit are marked in a scratch byte per object; the rest of `prev` loses it.
    const keep = (this.scratch ??= new Uint8Array(this.count));
    for (let k = 0; k < next.length; k++) keep[next[k]] = 1;
    let changed = 0;
    if (prev) {
      for (let k = 0; k < prev.length; k++) {
        const i = prev[k];
        if (f[i] & bit && !keep[i]) {
          f[i] &= ~bit;
          changed++;
        }
      }
    } else {
      for (let i = 0; i < this.count; i++)
        if (f[i] & bit && !keep[i]) {
          f[i] &= ~bit;
          changed++;
        }
    }
    for (let k = 0; k < next.length; k++) {
      const i = next[k];
      keep[i] = 0;
      if (f[i] & bit) continue;
      f[i] |= bit;
      changed++;
    }
    this.members.set(bit, next);
    if (changed) this.touchFlags();
    return changed;
  }

  /** Ids of all objects carrying `bit`, ascending. */
  withFlag(bit: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.count; i++) if (this.flags[i] & bit) out.push(i);
    return out;
  }

  /** Number of objects carrying `bit` (e.g. hidden objects for the visibility-changed event). */
  countFlag(bit: number): number {
    let n = 0;
    const f = this.flags;
    for (let i = 0; i < this.count; i++) if (f[i] & bit) n++;
    return n;
  }

  /** Sets object colours from sRGB bytes; ids outside the table are ignored. */
  setColor(ids: Iterable<number>, rgb: readonly [number, number, number]): void {
    for (const i of ids) {
      if (!(Number.isInteger(i) && i >= 0 && i < this.count)) continue;
      this.colors[i * 4] = rgb[0];
      this.colors[i * 4 + 1] = rgb[1];
      this.colors[i * 4 + 2] = rgb[2];
    }
    this.colorTexture.needsUpdate = true;
    this.version++;
  }

  /**
   * Sets object opacity (0..1, stored as a byte in the colour texture's alpha); ids outside the table are
   * ignored. @throws Error when opacity is not a number in 0..1.
   */
  setOpacity(ids: Iterable<number>, opacity: number): void {
    if (!(opacity >= 0 && opacity <= 1)) throw new Error(`Object opacity ${opacity} is not between 0 and 1`);
    const a = Math.round(opacity * 255);
    for (const i of ids) {
      if (!(Number.isInteger(i) && i >= 0 && i < this.count)) continue;
      const before = this.colors[i * 4 + 3];
      if (before === a) continue;
      if (before === 255) this.translucent++;
      if (a === 255) this.translucent--;
      this.colors[i * 4 + 3] = a;
    }
    this.colorTexture.needsUpdate = true;
    this.version++;
  }

  /** Opacity of object `i` (0..1); 1 for unknown ids. */
  opacity(i: number): number {
    return i >= 0 && i < this.count ? this.colors[i * 4 + 3] / 255 : 1;
  }

  /** Number of objects with opacity below 1 (the translucent pass runs while this is > 0). */
  get translucentCount(): number {
    return this.translucent;
  }

  /** Frees the GPU textures. */
  dispose(): void {
    this.flagTexture.dispose();
    this.colorTexture.dispose();
  }

  private touchFlags(): void {
    this.flagTexture.needsUpdate = true;
    this.version++;
  }
}

function makeTexture(data: Uint8Array, rows: number, format: typeof RedFormat | typeof RGBAFormat): DataTexture {
  const t = new DataTexture(data, TEXTURE_ROW, rows, format, UnsignedByteType);
  t.magFilter = NearestFilter;
  t.minFilter = NearestFilter;
  t.generateMipmaps = false;
  t.unpackAlignment = 1;
  t.needsUpdate = true;
  return t;
}
