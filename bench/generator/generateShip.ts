/**
 * Parametric ship generator for benchmarks and the demo (ARCHITECTURE.md "bench/"): a whole hull
 * structure as valid OCX 3.1.0, streamed as text pieces so 100k-part ships never live in memory as
 * one string. Size scales with targetParts through the number of frames (a longer ship).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { documentEnd } from './ocxCatalogue';
import { IdSource, type WriteCounts, catalogueIds, documentStart, panelXml } from './ocxWriter';
import { type ShipLayout, gridPlanes, layoutFor, planPanels } from './shipLayout';

/** Options of the generator. */
export interface ShipOptions {
  /** Wanted number of structural parts (plates + stiffeners + brackets); default 2000. The result is within 5 % or one block (~150 parts), minimum 8 frames. */
  targetParts?: number;
  /** Seed of the deterministic random choices (GUIDs, scantling variants); default 1. */
  seed?: number;
  /** Vessel and header name; default "Keelson demo ship". */
  name?: string;
}

/** What a generated file holds. */
export interface ShipStats {
  panels: number;
  plates: number;
  stiffeners: number;
  brackets: number;
  /** plates + stiffeners + brackets. */
  parts: number;
  frames: number;
  /** Ship length, m. */
  lengthM: number;
  /** Bytes written (writeShipOcx only; 0 from countShipParts). */
  bytes: number;
}

const DEFAULT_PARTS = 2000;

function variantFor(seed: number): (n: number) => number {
  const ids = new IdSource(seed ^ 0x5bd1e995);
  const v = [ids.random(), ids.random(), ids.random()];
  return (n: number) => Math.floor(v[n % 3] * n);
}

/** Counts the parts a layout produces without writing XML. */
function countParts(l: ShipLayout, seed: number): WriteCounts {
  const c: WriteCounts = { panels: 0, plates: 0, stiffeners: 0, brackets: 0 };
  for (const p of planPanels(l, variantFor(seed))) {
    c.panels++;
    c.plates += p.plates.length;
    c.stiffeners += p.stiffeners.length;
    c.brackets += p.brackets.length;
  }
  return c;
}

/** Chooses the frame count whose part count is nearest targetParts (parts grow linearly with frames). */
export function framesForTarget(targetParts: number, seed = 1): number {
  if (!Number.isFinite(targetParts) || targetParts <= 0) throw new Error(`targetParts must be a positive number, got ${targetParts}`);
  const parts = (n: number) => { const c = countParts(layoutFor(n), seed); return c.plates + c.stiffeners + c.brackets; };
  const a = 32, b = 64, pa = parts(a), pb = parts(b);
  const perFrame = (pb - pa) / (b - a);
  let n = Math.max(8, Math.round(a + (targetParts - pa) / perFrame));
  // Linear fit is close; refine by a few steps because bulkheads and block ends add steps.
  for (let i = 0; i < 4; i++) {
    const p = parts(n);
    const next = Math.max(8, n + Math.round((targetParts - p) / perFrame));
    if (next === n) break;
    n = next;
  }
  return n;
}

/** Counts of the ship generateShipOcx would write for these options (no XML is produced). */
export function countShipParts(options: ShipOptions = {}): ShipStats {
  const seed = options.seed ?? 1;
  const frames = framesForTarget(options.targetParts ?? DEFAULT_PARTS, seed);
  const l = layoutFor(frames);
  const c = countParts(l, seed);
  return { ...c, parts: c.plates + c.stiffeners + c.brackets, frames, lengthM: frames * l.frameSpacing, bytes: 0 };
}

async function* generate(options: ShipOptions, counts: WriteCounts): AsyncGenerator<string> {
  const seed = options.seed ?? 1;
  const frames = framesForTarget(options.targetParts ?? DEFAULT_PARTS, seed);
  const l = layoutFor(frames);
  const ids = new IdSource(seed);
  const cat = catalogueIds(ids);
  const length = frames * l.frameSpacing;
  yield documentStart(options.name ?? 'Keelson demo ship', ids, cat, gridPlanes(l), { length, breadth: l.breadth, depth: l.depth, draught: l.depth * 0.7 });
  let buffer = '';
  for (const panel of planPanels(l, variantFor(seed))) {
    buffer += panelXml(ids, cat, panel, counts);
    if (buffer.length > 1 << 16) {
      yield buffer;
      buffer = '';
    }
  }
  yield buffer + documentEnd(ids, cat);
}

/**
 * Streams the OCX 3.1.0 text of a generated ship in pieces of about 64 KiB.
 * Deterministic: the same options give the same text.
 * @throws Error when targetParts is not a positive number.
 */
export function generateShipOcx(options: ShipOptions = {}): AsyncGenerator<string> {
  return generate(options, { panels: 0, plates: 0, stiffeners: 0, brackets: 0 });
}

/**
 * Writes a generated ship to `path` (UTF-8) and returns its counts.
 * @throws Error for a bad targetParts; file system errors pass through.
 */
export async function writeShipOcx(path: string, options: ShipOptions = {}): Promise<ShipStats> {
  const counts: WriteCounts = { panels: 0, plates: 0, stiffeners: 0, brackets: 0 };
  const out = createWriteStream(path, { encoding: 'utf8' });
  const failed = once(out, 'error').then(([e]) => Promise.reject(e as Error));
  failed.catch(() => undefined);
  let bytes = 0;
  for await (const piece of generate(options, counts)) {
    bytes += Buffer.byteLength(piece);
    if (!out.write(piece)) await Promise.race([once(out, 'drain'), failed]);
  }
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  const frames = framesForTarget(options.targetParts ?? DEFAULT_PARTS, options.seed ?? 1);
  return { ...counts, parts: counts.plates + counts.stiffeners + counts.brackets, frames, lengthM: frames * layoutFor(frames).frameSpacing, bytes };
}
