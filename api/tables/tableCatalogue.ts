/**
 * Which tables a revision has and how each is made (viewer.md §7 "Tables": GET /types, /names?type,
 * /read?name). Model tables are computed once per loaded revision (memoised on its parsed data, which the
 * RevisionCache keeps); change tables exist only for earlier revisions whose comparison with this one is
 * already computed.
 */
import { blockIndexOf } from '../../engine/model/blocks';
import type { CompareResponse } from '../contract/compare';
import { TABLE_TYPES, type Table, type TableType } from '../contract/tables';
import { Errors } from '../errors';
import type { RevisionData } from '../projects/RevisionCache';
import { changeTable, changeTableFrom, changeTableName } from './changeTable';
import {
  compartmentTable,
  hasType,
  plateTable,
  profileTable,
  propertyText,
  stiffenerTable,
  weightTable,
} from './modelTables';

/** What the tables of one revision are made from. */
export interface TableContext {
  data: RevisionData;
  /** Earlier revisions whose comparison with this one is computed (newest first); asked only for change lists. */
  comparedFrom(): Promise<number[]>;
  /** The computed comparison of earlier revision `from` with this one. */
  comparison(from: number): Promise<CompareResponse>;
}

const BY_BLOCK = 'Weight by block';

/**
 * The block weight tables of a revision: one per block system (viewer.md §7 steel/block-system), named
 * 'Weight by block' when the model has one system and 'Weight by block ({system})' when it has several;
 * a part counts in the block of the system that holds it or its nearest ancestor (engine/model/blocks.ts).
 * Without block systems, one table from the objects' own block names.
 */
function blockTables(d: RevisionData): Map<string, () => Table> {
  const out = new Map<string, () => Table>();
  if (d.blockSystems.length === 0) {
    out.set(BY_BLOCK, () => weightTable(d, BY_BLOCK, 'Block', (i) => d.objects[i].block));
    return out;
  }
  for (const system of d.blockSystems) {
    const name = d.blockSystems.length === 1 ? BY_BLOCK : `${BY_BLOCK} (${system.name})`;
    out.set(name, () => {
      const member = blockIndexOf(d.objects, system);
      return weightTable(d, name, 'Block', (i) => (member[i] >= 0 ? system.blocks[member[i]].name : null));
    });
  }
  return out;
}

const MODEL_TABLES: Record<string, { type: TableType; make: (d: RevisionData, name: string) => Table }> = {
  'Weight by structure type': {
    type: 'Weights',
    make: (d, n) => weightTable(d, n, 'Structure type', (i) => propertyText(d, i, 'STYPE')),
  },
  'Weight by material': {
    type: 'Weights',
    make: (d, n) => weightTable(d, n, 'Material', (i) => propertyText(d, i, 'MAT')),
  },
  Plates: { type: 'Part lists', make: plateTable },
  'Stiffeners by profile': { type: 'Part lists', make: stiffenerTable },
  'Stiffener profiles': { type: 'Part lists', make: profileTable },
  Compartments: { type: 'Compartments', make: compartmentTable },
};

/** Names of one type's tables in display order. @throws ApiError 404 for an unknown type. */
export async function tableNames(ctx: TableContext, type: string): Promise<string[]> {
  if (!(TABLE_TYPES as readonly string[]).includes(type)) throw Errors.tableTypeNotFound(type);
  if (type === 'Revision changes') return (await ctx.comparedFrom()).map(changeTableName);
  if (type === 'Compartments' && !hasType(ctx.data, 'COMPARTMENT')) return [];
  const names = Object.entries(MODEL_TABLES)
    .filter(([, t]) => t.type === type)
    .map(([name]) => name);
  return type === 'Weights' ? [...blockTables(ctx.data).keys(), ...names] : names;
}

/** The types that have at least one table, in TABLE_TYPES order. */
export async function tableTypes(ctx: TableContext): Promise<string[]> {
  const out: string[] = [];
  for (const t of TABLE_TYPES) if ((await tableNames(ctx, t)).length > 0) out.push(t);
  return out;
}

const memo = new WeakMap<RevisionData, Map<string, Table>>();

/** The table `name`. @throws ApiError 404 'Table {name} not found' for a name the revision has no table of. */
export async function readTable(ctx: TableContext, name: string): Promise<Table> {
  const from = changeTableFrom(name);
  if (from !== null) {
    if (!(await ctx.comparedFrom()).includes(from)) throw Errors.tableNotFound(name);
    return changeTable(await ctx.comparison(from), name);
  }
  const byBlock = blockTables(ctx.data).get(name);
  const def = Object.hasOwn(MODEL_TABLES, name) ? MODEL_TABLES[name] : undefined;
  if (!byBlock && (!def || !(await tableNames(ctx, def.type)).includes(name))) throw Errors.tableNotFound(name);
  let tables = memo.get(ctx.data);
  if (!tables) memo.set(ctx.data, (tables = new Map()));
  let t = tables.get(name);
  if (!t) tables.set(name, (t = byBlock ? byBlock() : (def as NonNullable<typeof def>).make(ctx.data, name)));
  return t;
}
