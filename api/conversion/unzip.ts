/**
 * Minimal ZIP reading for uploads of a zipped OCX file (ARCHITECTURE.md "Names": "optionally zipped").
 * Reads the central directory, picks the one .3docx / .ocx / .xml entry and streams it out (stored or
 * deflated). ZIP64 and encrypted archives are refused with a clear error. Node-only.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';

const OCX_EXT = /\.(3docx|ocx|xml)$/i;

/** True when the file starts with a ZIP local-file signature (PK\x03\x04). */
export async function isZipFile(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const b = Buffer.alloc(4);
    const { bytesRead } = await fh.read(b, 0, 4, 0);
    return bytesRead === 4 && b.readUInt32LE(0) === 0x04034b50;
  } finally {
    await fh.close();
  }
}

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localOffset: number;
}

/**
 * Extracts the single OCX entry of `zipFile` into `outDir`; returns the extracted file's path.
 * @throws Error 'The archive holds no .3docx, .ocx or .xml file' / '... more than one ...' /
 *   'Unsupported archive: ...' for ZIP64, encryption or compression methods other than stored/deflate.
 */
export async function extractSingleOcxFromZip(zipFile: string, outDir: string): Promise<string> {
  const fh = await open(zipFile, 'r');
  let entry: Entry;
  try {
    const { size } = await fh.stat();
    const tailLen = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, size - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--) if (tail.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
    if (eocd < 0) throw new Error('Unsupported archive: the ZIP end-of-central-directory record is missing');
    const count = tail.readUInt16LE(eocd + 10);
    const cdSize = tail.readUInt32LE(eocd + 12);
    const cdOffset = tail.readUInt32LE(eocd + 16);
    if (cdOffset === 0xffffffff || count === 0xffff) throw new Error('Unsupported archive: ZIP64 archives are not supported');
    const cd = Buffer.alloc(cdSize);
    await fh.read(cd, 0, cdSize, cdOffset);
    const found: Entry[] = [];
    for (let p = 0, n = 0; n < count; n++) {
      if (cd.readUInt32LE(p) !== 0x02014b50) throw new Error(`Unsupported archive: bad central directory entry at byte ${cdOffset + p}`);
      const nameLen = cd.readUInt16LE(p + 28), extraLen = cd.readUInt16LE(p + 30), commentLen = cd.readUInt16LE(p + 32);
      const name = cd.toString('utf8', p + 46, p + 46 + nameLen);
      const e: Entry = {
        name,
        flags: cd.readUInt16LE(p + 8),
        method: cd.readUInt16LE(p + 10),
        compressedSize: cd.readUInt32LE(p + 20),
        localOffset: cd.readUInt32LE(p + 42),
      };
      if (OCX_EXT.test(name) && !name.endsWith('/') && !/(^|\/)__MACOSX\//.test(name)) found.push(e);
      p += 46 + nameLen + extraLen + commentLen;
    }
    if (found.length === 0) throw new Error('The archive holds no .3docx, .ocx or .xml file');
    if (found.length > 1) throw new Error(`The archive holds more than one OCX file: ${found.map((f) => f.name).join(', ')}`);
    entry = found[0];
    if (entry.flags & 1) throw new Error(`Unsupported archive: ${entry.name} is encrypted`);
    if (entry.method !== 0 && entry.method !== 8) throw new Error(`Unsupported archive: ${entry.name} uses compression method ${entry.method}`);
    const lh = Buffer.alloc(30);
    await fh.read(lh, 0, 30, entry.localOffset);
    if (lh.readUInt32LE(0) !== 0x04034b50) throw new Error(`Unsupported archive: bad local header of ${entry.name}`);
    entry.localOffset += 30 + lh.readUInt16LE(26) + lh.readUInt16LE(28);
  } finally {
    await fh.close();
  }
  await mkdir(outDir, { recursive: true });
  const out = path.join(outDir, path.basename(entry.name));
  const src = createReadStream(zipFile, { start: entry.localOffset, end: entry.localOffset + entry.compressedSize - 1 });
  if (entry.method === 8) await pipeline(src, createInflateRaw(), createWriteStream(out));
  else await pipeline(src, createWriteStream(out));
  return out;
}
