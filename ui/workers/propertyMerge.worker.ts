/**
 * The properties worker (viewer.md §2 "Properties panel", §5 "Property merging"): reads the open revision's
 * property columns (GET /api/keelson-instance/model/property-columns, every catalogue code, at most 32 codes
 * per call) and merges selections over them with ui/logic/propertyMerge.ts, so that merging 100,000 selected
 * parts never blocks the page. Exposed with Comlink; started and ended by ui/workers/PropertyMergeClient.ts.
 */
import * as Comlink from 'comlink';
import * as v from 'valibot';
import { PropertyColumnsResponseSchema } from '../../api/contract';
import { PROPERTY_CATALOGUE } from '../../engine/model/properties';
import {
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
  types: string[];
  blocks: (string | null)[];
}

async function readColumns(src: MergeSource, codes: string[]): Promise<Record<string, PropertyColumn>> {
  const q = new URLSearchParams({ modelName: src.modelName, revision: String(src.revision), codes: codes.join(',') });
  const r = await fetch(`${src.origin}/api/keelson-instance/model/property-columns?${q}`, { headers: src.headers });
  if (!r.ok) throw new Error(`Could not read the properties (${r.status} ${r.statusText})`);
  return v.parse(PropertyColumnsResponseSchema, await r.json()).columns;
}

const merger = new PropertyMerger();

const api = {
  /** Reads the revision's property columns and keeps them with the object types and blocks. */
  async load(src: MergeSource): Promise<void> {
    const codes = PROPERTY_CATALOGUE.map((d) => d.name);
    const calls: Promise<Record<string, PropertyColumn>>[] = [];
    for (let i = 0; i < codes.length; i += CODES_PER_CALL)
      calls.push(readColumns(src, codes.slice(i, i + CODES_PER_CALL)));
    const columns = Object.assign({}, ...(await Promise.all(calls)));
    merger.setModel(src.types, src.blocks, columns);
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
