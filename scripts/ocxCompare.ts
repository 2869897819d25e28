/**
 * `npm run ocx:compare -- A B [C ...]`: the same structure exported by different design systems must
 * give the same ship. Imports each file and prints, for every pair, the part counts by type, the total
 * weight (kg) and plate area (m²) and the overall centre of gravity (mm) as Keelson computes them from
 * the geometry, and the parts matched across the two files (by name, else by the nearest centre of
 * gravity of the same type within MATCH_MM) whose computed weight differs by more than 1 %, plus the
 * parts left unmatched. Exit code 0, 2 on bad usage or a file that cannot be imported.
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importOcxFile } from '../engine/node/ocx/importFile';
import type { ImportResult } from '../engine/model/types';

/** Largest distance (mm) between two parts' centres of gravity for a match by position. */
export const MATCH_MM = 150;
/** Relative weight difference (%) above which a matched pair is listed. */
export const DIFF_PCT = 1;

const TYPES = ['PLATE', 'STIFFENER', 'BRACKET', 'PILLAR', 'SEAM', 'HOLE'] as const;

/** One structural part of a model as the comparison sees it: kg, m², mm. */
export interface ComparedPart {
  id: string;
  name: string;
  type: string;
  weightKg: number;
  areaM2: number;
  cogMm: [number, number, number];
}

/** The figures of one model: counts by type, totals and its parts. */
export interface ModelFigures {
  file: string;
  counts: Record<string, number>;
  weightKg: number;
  plateAreaM2: number;
  cogMm: [number, number, number];
  parts: ComparedPart[];
}

/** Counts, totals and parts of an import (weights and CoGs from the geometry: W_GEOM, XCG_GEOM ...). */
export function modelFigures(file: string, r: ImportResult): ModelFigures {
  const counts: Record<string, number> = {};
  for (const t of TYPES) counts[t] = 0;
  const parts: ComparedPart[] = [];
  let w = 0,
    area = 0;
  const c = [0, 0, 0];
  r.objects.forEach((o, i) => {
    if (o.type in counts) counts[o.type]++;
    const p = r.properties[i];
    const wt = typeof p.W_GEOM === 'number' ? p.W_GEOM * 1000 : undefined;
    if (wt === undefined || typeof p.XCG_GEOM !== 'number') return;
    const cog: [number, number, number] = [
      (p.XCG_GEOM as number) * 1000,
      (p.YCG_GEOM as number) * 1000,
      (p.ZCG_GEOM as number) * 1000,
    ];
    const a = o.type === 'PLATE' && typeof p.AREA_GEOM === 'number' ? p.AREA_GEOM : 0;
    parts.push({ id: o.id, name: o.name, type: o.type, weightKg: wt, areaM2: a, cogMm: cog });
    w += wt;
    area += a;
    for (let k = 0; k < 3; k++) c[k] += wt * cog[k];
  });
  return {
    file,
    counts,
    weightKg: w,
    plateAreaM2: area,
    cogMm: (w > 0 ? c.map((v) => v / w) : [Number.NaN, Number.NaN, Number.NaN]) as [number, number, number],
    parts,
  };
}

const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/**
 * Pairs the parts of two models: first by equal name (when the name is unique in both), then each
 * remaining part of `a` with the nearest unpaired part of `b` of the same type within MATCH_MM.
 */
export function matchParts(
  a: ComparedPart[],
  b: ComparedPart[],
): { pairs: [ComparedPart, ComparedPart][]; onlyA: ComparedPart[]; onlyB: ComparedPart[] } {
  const pairs: [ComparedPart, ComparedPart][] = [];
  const unique = (ps: ComparedPart[]) => {
    const m = new Map<string, ComparedPart | null>();
    for (const p of ps) m.set(p.name, m.has(p.name) ? null : p);
    return m;
  };
  const ua = unique(a),
    ub = unique(b);
  const used = new Set<ComparedPart>();
  const left: ComparedPart[] = [];
  for (const p of a) {
    const q = ua.get(p.name) && ub.get(p.name);
    if (q) {
      pairs.push([p, q]);
      used.add(q);
    } else left.push(p);
  }
  const onlyA: ComparedPart[] = [];
  for (const p of left) {
    let best: ComparedPart | undefined,
      bd = MATCH_MM;
    for (const q of b) {
      if (used.has(q) || q.type !== p.type) continue;
      const d = dist(p.cogMm, q.cogMm);
      if (d <= bd) {
        bd = d;
        best = q;
      }
    }
    if (best) {
      pairs.push([p, best]);
      used.add(best);
    } else onlyA.push(p);
  }
  return { pairs, onlyA, onlyB: b.filter((q) => !used.has(q)) };
}

const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');
const pt = (c: readonly number[]) => c.map((v) => f1(v)).join(' ');
const pct = (a: number, b: number) =>
  a === 0 ? (b === 0 ? 0 : Number.POSITIVE_INFINITY) : (Math.abs(b - a) / a) * 100;

/** The lines ocx:compare prints for one pair of models. */
export function comparePair(a: ModelFigures, b: ModelFigures): string[] {
  const out = [`== ${a.file} vs ${b.file}`];
  out.push(`counts      ${TYPES.map((t) => `${t}=${a.counts[t]}/${b.counts[t]}`).join(' ')}`);
  out.push(`weight kg   ${f1(a.weightKg)} / ${f1(b.weightKg)} (${f1(pct(a.weightKg, b.weightKg))}%)`);
  out.push(
    `area m2     ${a.plateAreaM2.toFixed(3)} / ${b.plateAreaM2.toFixed(3)} (${f1(pct(a.plateAreaM2, b.plateAreaM2))}%)`,
  );
  out.push(`cog mm      ${pt(a.cogMm)} / ${pt(b.cogMm)} (${f1(dist(a.cogMm, b.cogMm))} mm apart)`);
  const { pairs, onlyA, onlyB } = matchParts(a.parts, b.parts);
  const differing = pairs.filter(([p, q]) => pct(p.weightKg, q.weightKg) > DIFF_PCT);
  out.push(`matched     ${pairs.length} parts, ${differing.length} differ by more than ${DIFF_PCT}% in weight`);
  for (const [p, q] of differing)
    out.push(
      `  ${p.type} ${p.id} / ${q.id}: ${f1(p.weightKg)} / ${f1(q.weightKg)} kg (${f1(pct(p.weightKg, q.weightKg))}%) at ${pt(p.cogMm)}`,
    );
  if (onlyA.length) out.push(`only in ${a.file}: ${onlyA.map((p) => `${p.type} ${p.id}`).join(', ')}`);
  if (onlyB.length) out.push(`only in ${b.file}: ${onlyB.map((p) => `${p.type} ${p.id}`).join(', ')}`);
  return out;
}

async function main(argv: string[]): Promise<number> {
  const files = argv.filter((a) => !a.startsWith('--'));
  if (files.length < 2) {
    process.stderr.write('usage: npm run ocx:compare -- A B [C ...]\n');
    return 2;
  }
  const models: ModelFigures[] = [];
  for (const f of files) {
    try {
      models.push(modelFigures(basename(f), await importOcxFile(f)));
    } catch (e) {
      process.stderr.write(`${basename(f)}: error: ${(e as Error).message}\n`);
      return 2;
    }
  }
  for (let i = 0; i < models.length; i++)
    for (let j = i + 1; j < models.length; j++)
      process.stdout.write(`${comparePair(models[i], models[j]).join('\n')}\n\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
