/**
 * The properties worker (viewer.md §2 "Properties panel", §5 "Property merging"): reads the open revision's
 * property columns (GET /api/keelson-instance/model/property-columns, every catalogue code but those the
 * object table already holds, at most 32 codes per call) and merges selections over them with
 * ui/logic/propertyMerge.ts, so that merging 100,000 selected parts never blocks the page. Exposed with
 * Comlink; started and ended by ui/workers/PropertyMergeClient.ts.
 */
import * as Comlink from 'comlink';
import {
  downloadedCodes,
  type OBJECT_TABLE_CODES,
  parseColumnsAnswer,
  PropertyMerger,
  type EarlierValuesMessage,
  type MergeRequest,
  type MergeResult,
  type PropertyColumn,
} from '../logic/propertyMerge';

/** Most codes the property-columns call takes at once. */
const CODES_PER_CALL = 32;

/** What the worker needs to read a revision: the page origin, the bearer header and the object table's fields. */
export interface MergeSource {
  origin: string;
  headers: Record<string, string>;
  modelName: string;
  revision: number;
  /** The object table's fields, parallel to it (GET .../model/objects). */
  table: { names: string[]; types: string[]; ids: string[]; guids: (string | null)[]; blocks: (string | null)[] };
}

async function readColumns(src: MergeSource, codes: string[]): Promise<Record<string, PropertyColumn>> {
  const q = new URLSearchParams({ modelName: src.modelName, revision: String(src.revision), codes: codes.join(',') });
  const r = await fetch(`${src.origin}/api/keelson-instance/model/property-columns?${q}`, { headers: src.headers });
  if (!r.ok) throw new Error(`Could not read the properties (${r.status} ${r.statusText})`);
  return parseColumnsAnswer(await r.json());
}

const merger = new PropertyMerger();

const api = {
  /** Reads the revision's property columns and keeps them with the object types and blocks. */
  async load(src: MergeSource): Promise<void> {
    const t = src.table;
    const own: Record<keyof typeof OBJECT_TABLE_CODES, PropertyColumn> = {
      NAME: t.names,
      OTYPE: t.types,
      STID: t.ids,
      GUID: t.guids,
    };
    const codes = downloadedCodes();
    const calls: Promise<Record<string, PropertyColumn>>[] = [];
    for (let i = 0; i < codes.length; i += CODES_PER_CALL)
      calls.push(readColumns(src, codes.slice(i, i + CODES_PER_CALL)));
    const columns = Object.assign({}, own, ...(await Promise.all(calls)));
    merger.setModel(t.types, t.blocks, columns);
  },
  /** Sets or clears the comparison's earlier values. */
  setEarlier(message: EarlierValuesMessage | null): void {
    merger.setEarlier(message);
  },
  /** Merges one selection. */
  merge(request: MergeRequest): MergeResult {
    return merger.merge(request);
  },
};

/** The worker's API as the client sees it. */
export type PropertyMergeApi = typeof api;

Comlink.expose(api);
