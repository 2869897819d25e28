/**
 * Mutated zip archives for the upload fuzz (tests/fuzz/Zip.fuzz.test.ts, tests/fuzz/Bcf.fuzz.test.ts,
 * bench/fuzz): zip bombs (a small archive unpacking past the cap, sizes in the headers that lie),
 * path-traversal and absurd entry names, truncation, bad CRCs, flipped bytes, unknown compression methods,
 * encryption flags, tens of thousands of entries, nested archives. Seeded: a case is a function of its seed.
 */
import { zipSync, type Zippable } from 'fflate';
import { type Rng, rngOf } from './prng';

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;

/** Offsets of every local or central header signature in `zip`. */
function headers(zip: Uint8Array, sig: number): number[] {
  const out: number[] = [];
  const dv = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  // only headers whose fixed part is whole (a truncated archive can end inside one): the mutations write into it
  const fixed = sig === CENTRAL ? 46 : 30;
  for (let i = 0; i + fixed <= zip.length; i++) if (dv.getUint32(i, true) === sig) out.push(i);
  return out;
}

/** Names that try to leave the extraction directory, or that no file system takes. */
export const HOSTILE_NAMES = [
  '../../evil.3docx',
  '../../../../../../tmp/evil.3docx',
  '/tmp/evil.3docx',
  '..\\..\\evil.3docx',
  'a/../../../evil.3docx',
  'C:/Windows/evil.3docx',
  'evil\u0000.3docx',
  '.3docx',
  '..3docx',
  ' .3docx',
  `${'x'.repeat(300)}.3docx`,
  `${'d/'.repeat(2000)}deep.3docx`,
  'ünï cødé 模型.3docx',
  'CON.3docx',
  'a:b.3docx',
];

type ZipMutation = (zip: Uint8Array, rng: Rng) => Uint8Array;

/** In-place byte change of a copy. */
function patched(zip: Uint8Array, edit: (dv: DataView, bytes: Uint8Array) => void): Uint8Array {
  const out = new Uint8Array(zip);
  edit(new DataView(out.buffer), out);
  return out;
}

/** Byte-level damage of an existing archive. */
export const ZIP_MUTATIONS: Record<string, ZipMutation> = {
  truncate: (zip, rng) => zip.slice(0, rng.int(zip.length)),
  badCrc: (zip, rng) =>
    patched(zip, (dv) => {
      for (const h of headers(zip, LOCAL)) if (rng.chance(0.7)) dv.setUint32(h + 14, rng.int(2 ** 32), true);
      for (const h of headers(zip, CENTRAL)) if (rng.chance(0.5)) dv.setUint32(h + 16, rng.int(2 ** 32), true);
    }),
  flipBytes: (zip, rng) =>
    patched(zip, (_dv, b) => {
      for (let k = rng.range(1, 16); k > 0; k--) b[rng.int(b.length)] ^= 1 << rng.int(8);
    }),
  /** Sizes in the headers that lie: small (a bomb's disguise), huge, or zero. */
  lyingSizes: (zip, rng) =>
    patched(zip, (dv) => {
      for (const h of headers(zip, LOCAL)) {
        if (rng.chance(0.5)) dv.setUint32(h + 18, rng.pick([0, 1, 0xffffffff, rng.int(2 ** 32)]), true);
        if (rng.chance(0.5)) dv.setUint32(h + 22, rng.pick([0, 1, 0xffffffff, rng.int(2 ** 32)]), true);
      }
    }),
  /** Compression methods nobody here decodes (bzip2, LZMA, AES, reserved). */
  method: (zip, rng) =>
    patched(zip, (dv) => {
      const m = rng.pick([1, 6, 9, 12, 14, 95, 98, 99, 0xffff]);
      for (const h of headers(zip, LOCAL)) if (rng.chance(0.7)) dv.setUint16(h + 8, m, true);
    }),
  /** The encryption and data-descriptor flags set on entries that have neither. */
  flags: (zip, rng) =>
    patched(zip, (dv) => {
      for (const h of headers(zip, LOCAL))
        dv.setUint16(h + 6, dv.getUint16(h + 6, true) | rng.pick([1, 8, 9, 0x41, 0x800]), true);
    }),
  /** A name length or extra-field length past the end. */
  lengths: (zip, rng) =>
    patched(zip, (dv) => {
      const h = headers(zip, LOCAL)[0];
      if (h !== undefined) dv.setUint16(h + rng.pick([26, 28]), rng.pick([0, 0xffff, rng.int(0x10000)]), true);
    }),
  garbage: (zip, rng) => {
    const at = rng.int(zip.length + 1);
    const junk = Uint8Array.from({ length: rng.range(1, 64) }, () => rng.int(256));
    const out = new Uint8Array(zip.length + junk.length);
    out.set(zip.subarray(0, at));
    out.set(junk, at);
    out.set(zip.subarray(at), at + junk.length);
    return out;
  },
};

/** What an archive case is built from. */
export interface ZipSources {
  /** The OCX document put in the archives. */
  ocx: Uint8Array;
  /** Bytes a bomb entry unpacks to (above the cap the test gives the extractor). */
  bombBytes: number;
  /** Most entries of a many-entries archive (building 70,000 takes seconds: the bench only). */
  maxEntries: number;
}

/** A fresh archive of one of the shapes uploads meet, hostile ones included. */
function buildArchive(rng: Rng, s: ZipSources): { zip: Uint8Array; shape: string } {
  const level = rng.pick([0, 1, 6, 9] as const);
  const shape = rng.pick([
    'plain',
    'plain',
    'hostileName',
    'manyEntries',
    'bomb',
    'bombSkipped',
    'nested',
    'twoOcx',
    'noOcx',
    'macosMeta',
    'directories',
    'empty',
  ]);
  const files: Zippable = {};
  switch (shape) {
    case 'hostileName':
      files[rng.pick(HOSTILE_NAMES)] = [s.ocx, { level }];
      break;
    case 'manyEntries': {
      const n = Math.min(s.maxEntries, rng.pick([1000, 20000, 70000]));
      for (let i = 0; i < n; i++) files[`e/${i}.txt`] = [new Uint8Array(0), { level: 0 }];
      files['model.3docx'] = [s.ocx, { level }];
      break;
    }
    case 'bomb':
    case 'bombSkipped': {
      // deflate of one repeated byte: about 1000:1
      const name = shape === 'bomb' ? 'model.3docx' : 'padding.bin';
      files[name] = [new Uint8Array(s.bombBytes).fill(32), { level: 9 }];
      if (shape === 'bombSkipped') files['model.3docx'] = [s.ocx, { level }];
      break;
    }
    case 'nested':
      files['inner.3docx'] = [zipSync({ 'model.3docx': s.ocx }), { level }];
      break;
    case 'twoOcx':
      files['a.3docx'] = [s.ocx, { level }];
      files['b.xml'] = [s.ocx, { level }];
      break;
    case 'noOcx':
      files['readme.txt'] = [new TextEncoder().encode('no model here'), { level }];
      break;
    case 'macosMeta':
      files['__MACOSX/._model.3docx'] = [new Uint8Array(64), { level }];
      files['model.3docx'] = [s.ocx, { level }];
      break;
    case 'directories':
      files['a/'] = new Uint8Array(0);
      files['a/b/model.3docx'] = [s.ocx, { level }];
      break;
    case 'empty':
      break;
    default:
      files['model.3docx'] = [s.ocx, { level }];
  }
  return { zip: zipSync(files), shape };
}

/** One archive case. */
export interface ZipCase {
  seed: number;
  /** The archive's shape and the damage done to it. */
  ops: string[];
  bytes: Uint8Array;
}

/** The case of `seed`: an archive of a random shape, then none, one or two kinds of damage. */
export function zipCase(seed: number, s: ZipSources): ZipCase {
  const rng = rngOf(seed);
  const built = buildArchive(rng, s);
  let zip = built.zip;
  const ops = [built.shape];
  for (let k = rng.pick([0, 1, 1, 2]); k > 0; k--) {
    const name = rng.pick(Object.keys(ZIP_MUTATIONS));
    ops.push(name);
    zip = ZIP_MUTATIONS[name](zip, rng);
  }
  return { seed, ops, bytes: zip };
}
