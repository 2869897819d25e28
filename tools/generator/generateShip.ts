/**
 * Parametric ship generator for benchmarks and the demo (ARCHITECTURE.md "bench/"): a whole hull
 * structure as valid OCX 3.1.0, streamed as text pieces so 100k-part ships never live in memory as
 * one string. Size scales with targetParts through the length (breadth and depth follow it, hullForm.ts).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { arrangementXml, designViewXml } from './arrangement';
import { type HullDims, hullDims } from './hullForm';
import { equipmentsXml } from './equipment';
import { documentEnd } from './ocxCatalogue';
import {
  IdSource,
  PartIds,
  VESSEL_ID,
  type WriteCounts,
  catalogueIds,
  documentStart,
  panelXml,
  zeroCounts,
} from './ocxWriter';
import { BLOCK_FRAMES, type PanelDesc, gridPlanes, planPanels } from './shipLayout';
import { type Dialect, applyDialect, dialectOf } from './dialects';
import { type ShipEdit, editPanel } from './shipEdits';

/** Options of the generator. */
export interface ShipOptions {
  /** Wanted number of structural parts (plates + stiffeners + brackets); default 2000. The result is within 5 % (minimum ship: 40 frames, about 1000 parts). */
  targetParts?: number;
  /** Seed of the deterministic random choices (GUIDs, scantling variants); default 1. */
  seed?: number;
  /** Vessel and header name; default "Keelson demo ship". */
  name?: string;
  /** Write the Arrangement with compartments (tanks, holds, void, engine room, peaks); default true. */
  compartments?: boolean;
  /**
   * Write the ship in another design system's dialect (tools/generator/dialects.ts: a name of DIALECTS or
   * a Dialect); default 'default', the canonical text. Parts, geometry and figures are the same ship.
   */
  dialect?: string | Dialect;
  /**
   * Known edits (shipEdits.ts): a thickness, a material, a moved stiffener, a removed or an added plate. The
   * other parts keep their ids and GUIDs, so the edited ship is a later revision of the unedited one.
   */
  edits?: readonly ShipEdit[];
  /**
   * Write `Equipments` whose items name CAD files (ExternalGeometryRef to the shared samples,
   * tools/generator/equipment.ts); default false.
   */
  equipment?: boolean;
}

/** What a generated file holds. */
export interface ShipStats {
  panels: number;
  plates: number;
  stiffeners: number;
  brackets: number;
  /** plates + stiffeners + brackets. */
  parts: number;
  /** Seam elements, holes (Hole2DContour + InnerContour), plates on NURBS surfaces. */
  seams: number;
  holes: number;
  curvedPlates: number;
  /** Compartments in the Arrangement (0 when disabled). */
  compartments: number;
  /** Sum of the compartment volumes, m³. */
  compartmentVolumeM3: number;
  /** OccurrenceGroups (blocks of BLOCK_FRAMES frames) in the DesignView. */
  blocks: number;
  frames: number;
  /** Ship length, breadth and depth, m. */
  lengthM: number;
  breadthM: number;
  depthM: number;
  /** Bytes written (writeShipOcx only; 0 from countShipParts). */
  bytes: number;
}

const DEFAULT_PARTS = 2000;
const MIN_FRAMES = 40;

function variantFor(seed: number): (n: number) => number {
  const ids = new IdSource(seed ^ 0x5bd1e995);
  const v = [ids.random(), ids.random(), ids.random()];
  return (n: number) => Math.floor(v[n % 3] * n);
}

/**
 * The panels written for a ship (panels without plates are dropped: the schema needs one plate), with
 * `edits` applied.
 */
function* panelsOf(d: HullDims, seed: number, edits: readonly ShipEdit[] = []): Generator<PanelDesc> {
  for (const p of planPanels(d, variantFor(seed))) if (p.plates.length) yield editPanel(p, edits);
}

/** Counts the parts a ship produces without writing XML. */
function countParts(d: HullDims, seed: number): WriteCounts {
  const c = zeroCounts();
  for (const p of panelsOf(d, seed)) {
    c.panels++;
    c.plates += p.plates.length;
    c.curvedPlates += p.plates.filter((x) => x.patch).length;
    c.stiffeners += p.stiffeners.length;
    c.brackets += p.brackets.length;
    c.seams += p.seams.length;
    c.holes += p.plates.reduce((n, x) => n + (x.holes?.length ?? 0), 0);
  }
  return c;
}

const partsOf = (c: WriteCounts) => c.plates + c.stiffeners + c.brackets;

/**
 * Chooses the frame count (0.8 m each; breadth and depth follow the length, hullForm.ts) whose part
 * count is nearest targetParts: a secant search on log(parts) against log(frames).
 * @throws Error when targetParts is not a positive number.
 */
export function framesForTarget(targetParts: number, seed = 1): number {
  if (!Number.isFinite(targetParts) || targetParts <= 0)
    throw new Error(`targetParts must be a positive number, got ${targetParts}`);
  const cache = new Map<number, number>();
  const parts = (n: number) => {
    n = Math.max(MIN_FRAMES, Math.round(n));
    if (!cache.has(n)) cache.set(n, partsOf(countParts(hullDims(n), seed)));
    return cache.get(n)!;
  };
  let a = MIN_FRAMES,
    pa = parts(a);
  if (targetParts <= pa) return a;
  let b = Math.max(a + 1, Math.round(a * (targetParts / pa) ** (1 / 2.2))),
    pb = parts(b);
  for (let i = 0; i < 8 && Math.abs(pb - targetParts) > 0.015 * targetParts; i++) {
    const k = Math.log(pb / pa) / Math.log(b / a);
    const next = Math.max(
      MIN_FRAMES,
      Math.round(b * (targetParts / pb) ** (1 / (Number.isFinite(k) && k > 0.5 ? k : 2.2))),
    );
    if (next === b) break;
    [a, pa, b, pb] = [b, pb, next, parts(next)];
  }
  let best = MIN_FRAMES;
  for (const [n, p] of cache) if (Math.abs(p - targetParts) < Math.abs(cache.get(best)! - targetParts)) best = n;
  return best;
}

function statsOf(
  d: HullDims,
  c: WriteCounts,
  compartments: { count: number; volume: number },
  bytes: number,
): ShipStats {
  return {
    ...c,
    parts: partsOf(c),
    compartments: compartments.count,
    compartmentVolumeM3: compartments.volume,
    blocks: Math.ceil(d.frames / BLOCK_FRAMES),
    frames: d.frames,
    lengthM: d.length,
    breadthM: d.breadth,
    depthM: d.depth,
    bytes,
  };
}

/** Counts of the ship generateShipOcx would write for these options (no XML is produced; compartments are not counted). */
export function countShipParts(options: ShipOptions = {}): ShipStats {
  const seed = options.seed ?? 1;
  const d = hullDims(framesForTarget(options.targetParts ?? DEFAULT_PARTS, seed));
  return statsOf(d, countParts(d, seed), { count: 0, volume: 0 }, 0);
}

function generate(
  options: ShipOptions,
  counts: WriteCounts,
  done: (d: HullDims, c: { count: number; volume: number }) => void,
): AsyncGenerator<string> {
  const dialect = dialectOf(options.dialect);
  return applyDialect(
    canonical(options, counts, done, dialect.cog === 'solid' ? { cog: 'solid' } : undefined),
    dialect,
  );
}

async function* canonical(
  options: ShipOptions,
  counts: WriteCounts,
  done: (d: HullDims, c: { count: number; volume: number }) => void,
  habits?: { cog: 'solid' },
): AsyncGenerator<string> {
  const seed = options.seed ?? 1;
  const d = hullDims(framesForTarget(options.targetParts ?? DEFAULT_PARTS, seed));
  const ids = new IdSource(seed);
  const cat = catalogueIds(ids);
  yield documentStart(options.name ?? 'Keelson demo ship', ids, cat, gridPlanes(d), {
    length: d.length,
    breadth: d.breadth,
    depth: d.depth,
    draught: d.draught,
  });
  yield* designViewXml(panelsOf(d, seed, options.edits), ids, VESSEL_ID, ids.guidOf(VESSEL_ID));
  const arr = options.compartments === false ? { xml: '', count: 0, volume: 0 } : arrangementXml(d, ids);
  yield arr.xml;
  const partIds = new PartIds();
  let buffer = '';
  for (const panel of panelsOf(d, seed, options.edits)) {
    buffer += panelXml(ids, cat, partIds, panel, counts, habits);
    if (buffer.length > 1 << 16) {
      yield buffer;
      buffer = '';
    }
  }
  done(d, arr);
  yield buffer + documentEnd(ids, cat, options.equipment ? equipmentsXml : undefined);
}

/**
 * Streams the OCX 3.1.0 text of a generated ship in pieces of about 64 KiB (options.dialect: rewritten
 * into that writer's dialect). Deterministic: the same options give the same text.
 * @throws Error when targetParts is not a positive number or the dialect is unknown.
 */
export function generateShipOcx(options: ShipOptions = {}): AsyncGenerator<string> {
  return generate(options, zeroCounts(), () => undefined);
}

/**
 * Writes a generated ship to `path` (UTF-8) and returns its counts.
 * @throws Error for a bad targetParts; file system errors pass through.
 */
export async function writeShipOcx(path: string, options: ShipOptions = {}): Promise<ShipStats> {
  const counts = zeroCounts();
  let result: { d: HullDims; c: { count: number; volume: number } } | undefined;
  const out = createWriteStream(path, { encoding: 'utf8' });
  const failed = once(out, 'error').then(([e]) => Promise.reject(e as Error));
  failed.catch(() => undefined);
  let bytes = 0;
  for await (const piece of generate(options, counts, (d, c) => (result = { d, c }))) {
    bytes += Buffer.byteLength(piece);
    if (!out.write(piece)) await Promise.race([once(out, 'drain'), failed]);
  }
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  return statsOf(result!.d, counts, result!.c, bytes);
}
