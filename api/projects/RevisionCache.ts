/**
 * In-memory LRU of parsed revision data (objects.json, properties.json written by
 * engine/package/node/writeRevision.ts), so object, property and quantity calls do not re-read files.
 * Keyed by revision directory and last-updated time, so a replaced revision is never served stale.
 */
import { readRevisionObjects, readRevisionProperties } from '../../engine/package/node/writeRevision';
import type { FrameTables, ImportWarning, ModelInfo, ModelObject, PropertyRecord } from '../../engine/model/types';

/** Parsed files of one revision. */
export interface RevisionData {
  info: ModelInfo;
  objects: ModelObject[];
  frames: FrameTables;
  warnings: ImportWarning[];
  properties: PropertyRecord[];
  /** Object index by OCX id. */
  byId: Map<string, number>;
}

/** Reads and parses a revision directory. @throws Error naming the file when one is missing or malformed. */
export async function loadRevisionData(dir: string): Promise<RevisionData> {
  const o = await readRevisionObjects(dir);
  const properties = await readRevisionProperties(dir);
  const byId = new Map<string, number>();
  for (const obj of o.objects) byId.set(obj.id, obj.index);
  return { info: o.info, objects: o.objects, frames: o.frames, warnings: o.warnings, properties, byId };
}

/** A small LRU (default 4 revisions); concurrent loads of one key share one promise. */
export class RevisionCache {
  private readonly entries = new Map<string, Promise<RevisionData>>();

  constructor(private readonly capacity = 4) {}

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

  /** Drops everything (after deletions). */
  clear(): void {
    this.entries.clear();
  }
}
