/**
 * The bounds of CAD conversion (api/cad/convertCad.ts): a file that takes longer than the time bound or needs
 * more than the heap bound fails with a CadConversionError naming the bound, an abort rejects with an
 * AbortError, and the next conversion in the same process still works (the server is not hurt).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCadPools, convertCadFile } from '../../api/cad/convertCad';
import { CadConversionError } from '../../api/cad/types';

const CAD = path.resolve(__dirname, '../../../shared/models/cad');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-cad-bounds-'));
});
afterAll(async () => {
  await closeCadPools();
  await rm(dir, { recursive: true, force: true });
});

/** An ASCII STL of `n` triangles (each a different one, so the text cannot be shared). */
function asciiStl(n: number): string {
  const parts = ['solid big\n'];
  for (let i = 0; i < n; i++)
    parts.push(
      `facet normal 0 0 1\nouter loop\nvertex ${i} 0 0\nvertex ${i + 1} 0 0\nvertex ${i} 1 0\nendloop\nendfacet\n`,
    );
  parts.push('endsolid big\n');
  return parts.join('');
}

describe('CAD conversion bounds', () => {
  it('stops a conversion over its time bound with a clear message', async () => {
    const err = await convertCadFile(path.join(CAD, 'as1-oc-214.stp'), { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CadConversionError);
    expect((err as Error).message).toBe('as1-oc-214.stp: conversion took longer than 0.05 s and was stopped');
  });

  it('stops a conversion over its heap bound with a clear message, and the next one works', async () => {
    const file = path.join(dir, 'big.stl');
    await writeFile(file, asciiStl(400_000));
    const err = await convertCadFile(file, { maxHeapMb: 64 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CadConversionError);
    expect((err as Error).message).toBe('big.stl: conversion needed more than 64 MB of memory and was stopped');
    const small = path.join(dir, 'small.stl');
    await writeFile(small, asciiStl(3));
    expect((await convertCadFile(small, { maxHeapMb: 64 })).triangles).toBe(3);
  });

  it('rejects with an AbortError when the caller aborts', async () => {
    const ac = new AbortController();
    const p = convertCadFile(path.join(CAD, 'as1_pe_203.stp'), { signal: ac.signal });
    ac.abort();
    const err = await p.catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(err).not.toBeInstanceOf(CadConversionError);
  });
});
