/**
 * In-memory LRU of parsed revision data (objects.json, properties.json written by
 * engine/node/package/writeRevision.ts), so object, property and quantity calls do not re-read files.
 * Keyed by revision directory and last-updated time, so a replaced revision is never served stale.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readRevisionObjects, readRevisionProperties } from '../../engine/node/package/writeRevision';
import { decodeScenePackage } from '../../engine/package/reader';
import { SectionIndex } from '../../engine/section/SectionIndex';
import { blockSystemsFromRows } from '../../engine/model/blocks';
import { ViewerHolds } from './viewerHolds';
import type {
  BlockSystem,
  FrameTables,
  ImportWarning,
  ModelInfo,
  ModelObject,
  PropertyRecord,
} from '../../engine/model/types';

/** Parsed files of one revision. */
export interface RevisionData {
  info: ModelInfo;
  objects: ModelObject[];
  frames: FrameTables;
  warnings: ImportWarning[];
  properties: PropertyRecord[];
  /** Object index by OCX id. */
  byId: Map<string, number>;
  /**
   * The block systems (objects.json; a revision written before they were kept: one system from the
   * objects' `block`, named after the model).
   */
  blockSystems: BlockSystem[];
}

/** Reads and parses a revision directory. @throws Error naming the file when one is missing or malformed. */
export async function loadRevisionData(dir: string): Promise<RevisionData> {
  const o = await readRevisionObjects(dir);
  const properties = await readRevisionProperties(dir);
  const byId = new Map<string, number>();
  for (const obj of o.objects) byId.set(obj.id, obj.index);
  const blockSystems = o.blockSystems ?? blockSystemsFromRows(o.objects, o.info.name);
  return { info: o.info, objects: o.objects, frames: o.frames, warnings: o.warnings, properties, byId, blockSystems };
}

/**
 * A small LRU (default 4 revisions); concurrent loads of one key share one promise. `viewers` tracks which
 * viewers use which project, so a closing viewer drops the data only when it was the last one.
 */
export class RevisionCache {
  private readonly entries = new Map<string, Promise<RevisionData>>();
  /** Viewers holding a project's cached data (maintenance/shutdown asks it before dropping). */
  readonly viewers: ViewerHolds;

  /**
   * @param capacity revisions kept (parsed files; as many decoded geometries).
   * @param viewerIdleMs a viewer silent for longer no longer holds its project (the viewer time-out), ms.
   */
  constructor(
    private readonly capacity = 4,
    viewerIdleMs = 15 * 60_000,
  ) {
    this.viewers = new ViewerHolds(viewerIdleMs);
  }

  /** The parsed data of `dir` (absolute) whose row was last updated at `stamp`. */
  get(dir: string, stamp: string): Promise<RevisionData> {
    const key = `${dir}|${stamp}`;
    let p = this.entries.get(key);
    if (p) {
      this.entries.delete(key);
      this.entries.set(key, p);
      return p;
    }
    p = loadRevisionData(dir);
    this.entries.set(key, p);
    p.catch(() => this.entries.delete(key));
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return p;
  }

  private readonly geometry = new Map<string, Promise<SectionIndex>>();

  /**
   * The decoded geometry of a revision's `.sc` file as a SectionIndex (server-side sections);
   * same LRU policy as `get`. @throws Error naming the file when it cannot be read or decoded.
   */
  sectionIndex(dir: string, stamp: string, scFile: string): Promise<SectionIndex> {
    const key = `${dir}|${stamp}|${scFile}`;
    let p = this.geometry.get(key);
    if (p) {
      this.geometry.delete(key);
      this.geometry.set(key, p);
      return p;
    }
    p = (async () => {
      const file = path.join(dir, scFile);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (e) {
        throw new Error(`Revision file ${file} cannot be read: ${(e as Error).message}`);
      }
      return SectionIndex.fromChunks(
        decodeScenePackage(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)).chunks,
      );
    })();
    this.geometry.set(key, p);
    p.catch(() => this.geometry.delete(key));
    while (this.geometry.size > this.capacity) this.geometry.delete(this.geometry.keys().next().value as string);
    return p;
  }

  /**
   * Drops the cached data and geometry of the revision directory `dir` (any stamp); returns how many entries
   * were dropped. A later `get` or `sectionIndex` reads the files again (maintenance/shutdown).
   */
  drop(dir: string): number {
    let n = 0;
    for (const m of [this.entries, this.geometry] as Map<string, unknown>[])
      for (const key of [...m.keys()])
        if (key.startsWith(`${dir}|`)) {
          m.delete(key);
          n++;
        }
    return n;
  }

  /** Drops everything (after deletions). */
  clear(): void {
    this.entries.clear();
    this.geometry.clear();
  }
}
