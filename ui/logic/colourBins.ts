/**
 * Grouping a quantity's values into colour bins (application.md §4 "Coloring": numeric quantities in
 * ranges, text ones by value). Numbers are compared as the properties panel shows them (viewer.md §3
 * "Units": PLTH 0.012 m is '12.0 mm'). A quantity with at most MAX_DISTINCT_VALUES distinct shown values
 * gets one bin per value; more get ranges of one "nice" width (1, 2, 2.5 or 5 × 10^k in display units)
 * aligned to multiples of that width, so the same data gives the same ranges (and colours) every time.
 * Text values are trimmed; empty text and missing values belong to no bin.
 */
import { DISPLAY_UNITS, PROPERTY_BY_NAME } from '../../engine/model/properties';

/** Most distinct values shown one per bin; above this numeric values are grouped in ranges. */
export const MAX_DISTINCT_VALUES = 12;
/** Ranges aimed at when grouping (the nice width makes it this many or a few fewer). */
export const TARGET_RANGES = 8;

/** One bin: a stable key (quantity code and label, the colour's seed) and the label the legend shows. */
export interface ColourBin {
  /** '{code}={label}', e.g. 'PLTH=12.0 mm', 'MAT=AH36', 'W=0.50–1.00 t'. */
  key: string;
  /** Value or range as shown, with its unit. */
  label: string;
}

/** The bins of one quantity over a set of objects, and each object's bin. */
export interface QuantityBins {
  code: string;
  bins: ColourBin[];
  /** Bin index per member (same order as the `members` given), -1 when the member has no value. */
  binOf: Int32Array;
}

type Value = number | string | null | undefined;

/** Display unit of a catalogue code: factor, decimals and label ('' and 3 decimals for plain numbers). */
function unitOf(code: string): { factor: number; decimals: number; label: string } {
  const d = PROPERTY_BY_NAME.get(code);
  const u = d?.unit ? DISPLAY_UNITS[d.unit] : undefined;
  return u ? { factor: u.factor, decimals: u.decimals, label: u.label } : { factor: 1, decimals: 3, label: '' };
}

const withUnit = (text: string, unit: string) => (unit ? `${text} ${unit}` : text);

/** The nice range width (1, 2, 2.5 or 5 × 10^k) for a span split in about `target` ranges. */
export function niceStep(span: number, target = TARGET_RANGES): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const rough = span / target;
  const p = 10 ** Math.floor(Math.log10(rough));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= rough * (1 - 1e-9)) return m * p;
  return 10 * p;
}

/** Decimals needed to write multiples of `step` exactly (2.5 → 1, 0.25 → 2, 5 → 0). */
function stepDecimals(step: number): number {
  for (let d = 0; d < 10; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-6) return d;
  return 10;
}

/**
 * Bins the values of quantity `code` of the objects `members` (indices into `values`, the property
 * column parallel to the object table; catalogue units, null where absent).
 */
export function binQuantity(code: string, values: ArrayLike<Value>, members: ArrayLike<number>): QuantityBins {
  const binOf = new Int32Array(members.length).fill(-1);
  const nums: number[] = [];
  let numeric = true;
  for (let k = 0; k < members.length; k++) {
    const v = values[members[k]];
    if (v === null || v === undefined) continue;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) nums.push(v);
    } else if (v.trim() !== '') numeric = false;
  }
  if (!numeric) return binText(code, values, members, binOf);
  const unit = unitOf(code);
  // Distinct values as shown.
  const shown = new Map<string, number>();
  const seen = new Set<number>();
  for (const v of nums) {
    if (seen.has(v)) continue;
    seen.add(v);
    const text = (v * unit.factor).toFixed(unit.decimals);
    if (!shown.has(text)) shown.set(text, Number(text));
    if (shown.size > MAX_DISTINCT_VALUES) break;
  }
  if (shown.size <= MAX_DISTINCT_VALUES) {
    const texts = [...shown.entries()].sort((a, b) => a[1] - b[1]).map(([t]) => t);
    const index = new Map(texts.map((t, i) => [t, i]));
    const bins = texts.map((t) => ({ key: `${code}=${withUnit(t, unit.label)}`, label: withUnit(t, unit.label) }));
    // Parts repeat a few raw values: each is written out once.
    const byRaw = new Map<number, number>();
    for (let k = 0; k < members.length; k++) {
      const v = values[members[k]];
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      let b = byRaw.get(v);
      if (b === undefined) byRaw.set(v, (b = index.get((v * unit.factor).toFixed(unit.decimals))!));
      binOf[k] = b;
    }
    return { code, bins, binOf };
  }
  let min = Infinity,
    max = -Infinity;
  for (const v of nums) {
    const d = v * unit.factor;
    if (d < min) min = d;
    if (d > max) max = d;
  }
  const step = niceStep(max - min);
  const k0 = Math.floor(min / step + 1e-9);
  const count = Math.floor(max / step + 1e-9) - k0 + 1;
  const dec = stepDecimals(step);
  const edge = (i: number) => ((k0 + i) * step).toFixed(dec);
  const bins: ColourBin[] = [];
  for (let i = 0; i < count; i++) {
    const label = withUnit(`${edge(i)}–${edge(i + 1)}`, unit.label);
    bins.push({ key: `${code}=${label}`, label });
  }
  for (let k = 0; k < members.length; k++) {
    const v = values[members[k]];
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    const i = Math.floor((v * unit.factor) / step + 1e-9) - k0;
    binOf[k] = Math.min(count - 1, Math.max(0, i));
  }
  return { code, bins, binOf };
}

/** Text quantities: one bin per trimmed value (numbers among them written as the panel shows them). */
function binText(code: string, values: ArrayLike<Value>, members: ArrayLike<number>, binOf: Int32Array): QuantityBins {
  const unit = unitOf(code);
  const textOf = (v: Value): string | null => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'number')
      return Number.isFinite(v) ? withUnit((v * unit.factor).toFixed(unit.decimals), unit.label) : null;
    const t = v.trim();
    return t === '' ? null : t;
  };
  const index = new Map<string, number>();
  const raw: (string | null)[] = [];
  for (let k = 0; k < members.length; k++) {
    const t = textOf(values[members[k]]);
    raw.push(t);
    if (t !== null && !index.has(t)) index.set(t, 0);
  }
  const labels = [...index.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  labels.forEach((l, i) => index.set(l, i));
  for (let k = 0; k < raw.length; k++) {
    const t = raw[k];
    if (t !== null) binOf[k] = index.get(t)!;
  }
  return { code, bins: labels.map((label) => ({ key: `${code}=${label}`, label })), binOf };
}
