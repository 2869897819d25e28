/**
 * The BCF import fuzz (tests/fuzz/Bcf.fuzz.test.ts, bench/fuzz): buildingSMART's sample packages
 * (../shared/models/bcf) mutated at the archive level (tests/fuzz/zipMutations.ts), in their XML (the
 * structure-aware mutations of tests/fuzz/ocxMutations.ts on markup.bcf, .bcfv, bcf.version, .bcfp) and in
 * their structure (thousands of topics, comments, labels, assignees, viewpoints; absurd file names), then
 * read by api/comments/bcf/importBcf.ts as the import route does. Endings:
 *   imported — a package whose every value is within the bounds the comment API enforces on its own input;
 *   refused  — BcfError with a message (the route's 400);
 *   unbounded — imported, but a value past those bounds (it would be stored unchecked);
 *   crash    — any other error (the route's 500);
 *   hang     — ended either way, but past the CPU-time bound (the import is synchronous, as in the route:
 *              it is measured, not stopped).
 * The last three are findings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { BcfError, importBcf, type ImportedComment, type ImportedPackage } from '../../api/comments/bcf/importBcf';
import type { ObjectIndex } from '../../api/comments/bcf/viewpoint';
import * as v from 'valibot';
import {
  AttachmentViewSchema,
  FILE_NAME_MAX_LENGTH,
  LABEL_MAX_LENGTH,
  MAX_ASSIGNEES,
  MAX_ATTACHMENTS,
  MAX_LABELS,
  MESSAGE_MAX_LENGTH,
} from '../../api/contract/comments';
import { MUTATIONS } from './ocxMutations';
import { type Rng, rngOf } from './prng';
import { ZIP_MUTATIONS } from './zipMutations';

/** The shared BCF sample packages (read in place). */
export const BCF_SAMPLES = fileURLToPath(new URL('../../../shared/models/bcf', import.meta.url));

/** The sample packages, read once. */
export function loadBcfBases(): { name: string; bytes: Uint8Array }[] {
  return readdirSync(BCF_SAMPLES)
    .filter((f) => f.endsWith('.bcf'))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(path.join(BCF_SAMPLES, name)) }));
}

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
const bytesOf = (s: string) => Buffer.from(s, 'latin1');

/** Changes to a package's entries (name → bytes), in place. */
/** Most bytes the copied topic folders of one case add. */
const MAX_TOPIC_COPIES_BYTES = 256 << 20;

const STRUCTURE: Record<string, (files: Record<string, Uint8Array>, rng: Rng, maxGrowBytes: number) => void> = {
  /** One XML entry mutated like an OCX document. */
  xml(files, rng, maxGrowBytes) {
    const names = Object.keys(files).filter((n) => /\.(bcf|bcfv|version|bcfp)$/i.test(n));
    if (!names.length) return;
    const name = rng.pick(names);
    const op = rng.pick(Object.keys(MUTATIONS));
    files[name] = bytesOf(MUTATIONS[op](latin1(files[name]), rng, { maxGrowBytes }));
  },
  /** A topic folder copied hundreds or thousands of times (past the topic limit too). */
  manyTopics(files, rng, maxGrowBytes) {
    const topic = Object.keys(files).find((n) => /^[^/]+\/markup\.bcf$/i.test(n));
    if (!topic) return;
    const dir = topic.slice(0, topic.indexOf('/') + 1);
    // the markup and viewpoints only: thousands of copies of the snapshots would make a 100 MB package
    const entries = Object.entries(files).filter(([n]) => n.startsWith(dir) && !/\.(png|jpe?g)$/i.test(n));
    // 5001 passes the topic limit; 2000 topics (seconds to read) only when the case may grow by megabytes
    const picked = rng.pick(maxGrowBytes >= 1 << 20 ? [100, 2000, 5001] : [100, 5001]);
    // a topic an earlier change grew to megabytes would make thousands of copies a package of gigabytes (past
    // what fflate can zip); keep the copies to MAX_TOPIC_COPIES_BYTES in all
    const each = entries.reduce((sum, [, b]) => sum + b.length, 0);
    const count = Math.max(1, Math.min(picked, Math.floor(MAX_TOPIC_COPIES_BYTES / Math.max(1, each))));
    for (let i = count; i > 0; i--) for (const [n, b] of entries) files[`t${i}-${n}`] = b;
  },
  /** Repeated children of a topic: comments, labels, assignees, viewpoints (thousands of each). */
  repeated(files, rng, maxGrowBytes) {
    const markup = Object.keys(files).find((n) => /markup\.bcf$/i.test(n));
    if (!markup) return;
    const text = latin1(files[markup]);
    const n = rng.pick([30, 300, 30000]);
    const long = 'x'.repeat(rng.pick([10, 300, 100000]));
    const child = rng.pick([
      `<Labels>${long}</Labels>`,
      `<Labels><Label>${long}</Label></Labels>`,
      `<AssignedTo>${long}@yard.com</AssignedTo>`,
      `<Comment Guid="c"><Date>2024-01-01T00:00:00Z</Date><Author>${long}</Author><Comment>${long}</Comment></Comment>`,
      `<ViewPoint Guid="v"><Viewpoint>viewpoint.bcfv</Viewpoint><Snapshot>${long}.png</Snapshot></ViewPoint>`,
      `<Viewpoints Guid="v"><Viewpoint>${long}.bcfv</Viewpoint><Snapshot>snapshot.png</Snapshot></Viewpoints>`,
    ]);
    const at = text.search(/<\/(\w+:)?Topic>|<\/(\w+:)?Markup>/);
    if (at < 0) return;
    // at most maxGrowBytes of repeats (past every bound in the bench; CI keeps them small)
    const times = Math.max(1, Math.min(n, Math.floor(maxGrowBytes / child.length)));
    files[markup] = bytesOf(text.slice(0, at) + child.repeat(times) + text.slice(at));
  },
  /** Entries renamed to leave the package or to be absurd. */
  names(files, rng) {
    const names = Object.keys(files);
    if (!names.length) return;
    const name = rng.pick(names);
    const to = rng.pick(['../', '/', '..\\', `${'x'.repeat(300)}/`, 'a/b/c/']) + name;
    files[to] = files[name];
    delete files[name];
  },
  /** A viewpoint selecting hundreds of thousands of components. */
  manyComponents(files, rng, maxGrowBytes) {
    const vp = Object.keys(files).find((n) => n.endsWith('.bcfv'));
    if (!vp) return;
    const text = latin1(files[vp]);
    const n = Math.min(rng.pick([1000, 250000]), Math.floor(maxGrowBytes / 40));
    const comps = Array.from(
      { length: n },
      (_, i) => `<Component IfcGuid="${i.toString(36).padStart(22, '0')}"/>`,
    ).join('');
    files[vp] = bytesOf(
      text.includes('<Components>')
        ? text.replace('<Components>', `<Components><Selection>${comps}</Selection>`)
        : text.replace(
            /<\/VisualizationInfo>/,
            `<Components><Selection>${comps}</Selection></Components></VisualizationInfo>`,
          ),
    );
  },
};

/** One BCF case. */
export interface BcfCase {
  seed: number;
  base: string;
  ops: string[];
  bytes: Uint8Array;
}

/**
 * The case of `seed`: one or two structure or XML changes (each adding at most about `maxGrowBytes`), then
 * maybe damage to the archive.
 */
export function bcfCase(
  seed: number,
  bases: readonly { name: string; bytes: Uint8Array }[],
  maxGrowBytes: number,
): BcfCase {
  const rng = rngOf(seed);
  const base = rng.pick(bases);
  const files = unzipSync(base.bytes) as Record<string, Uint8Array>;
  const ops: string[] = [];
  for (let k = rng.pick([1, 1, 2]); k > 0; k--) {
    const op = rng.pick(Object.keys(STRUCTURE));
    ops.push(op);
    STRUCTURE[op](files, rng, maxGrowBytes);
  }
  const zippable: Zippable = {};
  for (const [n, b] of Object.entries(files)) zippable[n] = [b, { level: rng.pick([0, 6] as const) }];
  let bytes: Uint8Array = zipSync(zippable);
  if (rng.chance(0.3)) {
    const op = rng.pick(Object.keys(ZIP_MUTATIONS));
    ops.push(`zip:${op}`);
    bytes = ZIP_MUTATIONS[op](bytes, rng);
  }
  return { seed, base: base.name, ops, bytes };
}

/** Outcome classes of a package; the last three are findings. */
export type BcfClass = 'imported' | 'refused' | 'unbounded' | 'crash' | 'hang';
export const BCF_FINDINGS: readonly BcfClass[] = ['unbounded', 'crash', 'hang'];

/** One package's ending. */
export interface BcfResult {
  seed: number;
  base: string;
  ops: string[];
  bytes: number;
  kind: BcfClass;
  message: string;
  ms: number;
  /** CPU time of the import (this process's: the import runs on this thread), ms. */
  cpuMs: number;
}

/** Longest user name of a comment (CommentUserSchema's userName). */
const USER_NAME_MAX_LENGTH = 254;

/** The first value of an imported comment past the bounds of the comment API, or undefined. */
function unboundedIn(c: ImportedComment): string | undefined {
  if (c.message.length > MESSAGE_MAX_LENGTH) return `message of ${c.message.length} characters`;
  if (c.labels.length > MAX_LABELS) return `${c.labels.length} labels`;
  if (c.labels.some((l) => l.length > LABEL_MAX_LENGTH)) return 'a label too long';
  if (c.assignees.length > MAX_ASSIGNEES) return `${c.assignees.length} assignees`;
  if (c.assignees.some((a) => a.length > USER_NAME_MAX_LENGTH)) return 'an assignee name too long';
  if (c.author.length > USER_NAME_MAX_LENGTH) return `author of ${c.author.length} characters`;
  if (c.attachments.length > MAX_ATTACHMENTS) return `${c.attachments.length} attachments on one comment`;
  for (const a of c.attachments) {
    if (a.fileName.length > FILE_NAME_MAX_LENGTH || /[/\\]/.test(a.fileName))
      return `attachment name ${JSON.stringify(a.fileName.slice(0, 80))} (${a.fileName.length} characters)`;
    const view = v.safeParse(AttachmentViewSchema, a.view);
    if (!view.success) return `a view the comment API would refuse: ${view.issues[0].message}`;
  }
  return undefined;
}

/** The first value of a package past the comment API's bounds, or undefined. */
export function unboundedValue(pkg: ImportedPackage): string | undefined {
  for (const t of pkg.threads) {
    const bad = unboundedIn(t) ?? t.replies.map(unboundedIn).find((x) => x !== undefined);
    if (bad) return bad;
  }
  return undefined;
}

/**
 * Reads the packages of `seeds` with importBcf against `index`; a case whose import took more than
 * `hangCpuMs` of CPU time (default 120 s, as the OCX fuzz's bound) is a hang, whatever its ending.
 */
export function runBcfFuzz(
  seeds: readonly number[],
  bases: readonly { name: string; bytes: Uint8Array }[],
  index: ObjectIndex,
  maxGrowBytes: number,
  onResult?: (r: BcfResult) => void,
  hangCpuMs = 120_000,
): BcfResult[] {
  const results: BcfResult[] = [];
  for (const seed of seeds) {
    const c = bcfCase(seed, bases, maxGrowBytes);
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    let kind: BcfClass;
    let message: string;
    try {
      const pkg = importBcf(c.bytes, index);
      const bad = unboundedValue(pkg);
      kind = bad ? 'unbounded' : 'imported';
      message = bad ?? `${pkg.threads.length} topics, ${pkg.warnings.length} warnings`;
    } catch (e) {
      const err = e as Error;
      kind = err instanceof BcfError && err.message ? 'refused' : 'crash';
      message = `${err?.name}: ${err?.message}`.slice(0, 500);
    }
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu0);
    const cpuMs = (used.user + used.system) / 1000;
    if (cpuMs > hangCpuMs) {
      message = `past the ${hangCpuMs / 1000} s CPU-time bound (${(cpuMs / 1000).toFixed(1)} s; ${kind}: ${message})`;
      kind = 'hang';
    }
    const r = { seed, base: c.base, ops: c.ops, bytes: c.bytes.length, kind, message, ms, cpuMs };
    results.push(r);
    onResult?.(r);
  }
  return results;
}

/** A BCF finding as one line. */
export function describeBcf(r: BcfResult): string {
  return `seed ${r.seed} (${r.base}; ${r.ops.join(' + ')}; ${r.bytes} B; ${(r.cpuMs / 1000).toFixed(1)} s CPU) → ${r.kind}: ${r.message}`;
}
