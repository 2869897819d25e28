/**
 * Parsing and processing one top-level part cut out of the document by PartSplitter
 * (engine/ocx/partSplit.ts): used alike by the part worker threads (engine/node/ocx/partWorker.ts) and by the
 * calling thread when the workers are busy (engine/node/ocx/partPool.ts), so both give the same output.
 * The part's bytes are parsed by readOcx inside the file's own root and Vessel start tags (prefixes and
 * namespaces resolve as in the file) with the line numbers of the file, then processed by a
 * ModelBuilder. Outputs are numbered from 0 and renumbered when appended (rebaseOutput).
 */
import type { GroupOutput, ModelBuilder } from './buildModel';
import { readOcx, type PartRecord } from './reader';

/** The start tags enclosing top-level parts, decoded (see PartContext in partSplit.ts). */
export interface PartTextContext {
  /** `<root …>` start tag text, as in the file. */
  root: string;
  rootQName: string;
  /** `<Vessel …>` start tag text, as in the file. */
  vessel: string;
  vesselQName: string;
}

/**
 * One unit's results: its groups' outputs (objects numbered from `base`) and, for a part parsed from
 * text, the unknown elements counted in it in order of appearance (null for already parsed records,
 * whose reader counted them).
 */
export interface PartTextResult {
  groups: { out: GroupOutput; base: number }[];
  unsupported: [string, number][] | null;
}

const decoder = new TextDecoder('utf-8');

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Parses and processes one top-level part element.
 * @param bytes the element's UTF-8 bytes, whole; `line` and `column` those of its '<' in the file (1-based).
 * @throws OcxImportError when the part is malformed (message and line as for the whole file).
 */
export async function processPartText(
  builder: ModelBuilder,
  ctx: PartTextContext,
  bytes: Uint8Array,
  line: number,
  column: number,
): Promise<PartTextResult> {
  // the part on a line of its own, indented to its own column: lines and columns are the file's
  const head = `${ctx.root}${ctx.vessel}\n${' '.repeat(Math.max(0, column - 1))}`;
  const text = `${head + decoder.decode(bytes)}</${ctx.vesselQName}></${ctx.rootQName}>`;
  const groups: PartTextResult['groups'] = [];
  const unsupported = new Map<string, number>();
  async function* once(): AsyncGenerator<string> {
    yield text;
  }
  await readOcx(once(), {
    lineOffset: line - 1 - countLines(head),
    unsupported,
    onGroup: (records, base) => groups.push({ out: builder.processGroup(records, base), base }),
  });
  return { groups, unsupported: [...unsupported] };
}

/**
 * Renumbers a group output processed with its first object at `from` so that it starts at `to`
 * (object index and parent, mesh and fidelity object indices). Mutates and returns `out`.
 */
export function rebaseOutput(out: GroupOutput, from: number, to: number): GroupOutput {
  const d = to - from;
  if (d === 0) return out;
  for (const o of out.objects) {
    o.index += d;
    if (o.parent >= 0) o.parent += d;
  }
  for (const m of out.meshes) m.object += d;
  for (const f of out.fidelity) f.object += d;
  return out;
}

/** One unit of work: a top-level part's bytes with its file line and column, or a parsed group of records. */
export type PartUnit =
  | { kind: 'text'; bytes: Uint8Array; line: number; column: number }
  | { kind: 'records'; records: PartRecord[]; base: number };

/** An error thrown while processing a batch, as data (an OcxImportError keeps its line and column). */
export interface PartError {
  name: string;
  message: string;
  stack?: string;
  line?: number;
  column?: number;
}

/**
 * Processes the units of a batch in order with `builder` (shared by the worker and by the calling
 * thread when the workers are busy).
 * @throws what parsing or processing a unit throws.
 */
export async function processUnits(
  builder: ModelBuilder,
  units: PartUnit[],
  context: PartTextContext | null,
): Promise<PartTextResult[]> {
  const results: PartTextResult[] = [];
  for (const u of units) {
    if (u.kind === 'records')
      results.push({ groups: [{ out: builder.processGroup(u.records, u.base), base: u.base }], unsupported: null });
    else {
      if (!context) throw new Error('OCX part pool: a part was cut out before the Vessel start tag was seen');
      results.push(await processPartText(builder, context, u.bytes, u.line, u.column));
    }
  }
  return results;
}

/** The error as data for postMessage. */
export function errorData(e: unknown): PartError {
  const x = e as Partial<PartError> & Error;
  return {
    name: x?.name ?? 'Error',
    message: x?.message ?? String(e),
    stack: x?.stack,
    line: x?.line,
    column: x?.column,
  };
}
