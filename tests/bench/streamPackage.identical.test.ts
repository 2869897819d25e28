/**
 * The goals bench packages ships too large for memory chunk by chunk from a spill file
 * (bench/goals/streamPackage.ts): its package must be the one encodeScenePackage writes from the
 * whole import, byte for byte — same chunk plan, order, welding and header — on real inputs.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { streamPackage } from '../../bench/goals/streamPackage';
import { importOcxFile } from '../../engine/node/ocx/importFile';
import { concatFrames, encodeScenePackage } from '../../engine/package/writer';
import { writeShipOcx } from '../../tools/generator/index';

const MODELS = path.resolve(__dirname, '../../../shared/models/ocx');
const dirP = mkdtemp(path.join(os.tmpdir(), 'keelson-stream-package-'));
afterAll(async () => rm(await dirP, { recursive: true, force: true }));

async function inMemoryPackage(file: string): Promise<Uint8Array> {
  const model = await importOcxFile(file, { threads: 0 });
  return concatFrames(
    encodeScenePackage(model.meshes, {
      bounds: model.info.bounds,
      objectCount: model.objects.length,
      tolerances: model.info.tolerances,
    }),
  );
}

describe('streamPackage', () => {
  it.each(['NAPA-OCX_M8.3docx', 'CADMATIC-TR03_TC10.3docx'])('writes the in-memory package of %s', async (name) => {
    const file = path.join(MODELS, name);
    const sc = path.join(await dirP, `${name}.sc`);
    const stats = await streamPackage(file, sc);
    const streamed = new Uint8Array(await readFile(sc));
    expect(stats.bytes).toBe(streamed.length);
    expect(Buffer.from(streamed).equals(Buffer.from(await inMemoryPackage(file)))).toBe(true);
  });

  it('writes the in-memory package of a generated ship of many chunks', async () => {
    const dir = await dirP;
    const ocx = path.join(dir, 'ship.3docx');
    await writeShipOcx(ocx, { targetParts: 2000, seed: 7 });
    const sc = path.join(dir, 'ship.sc');
    const stats = await streamPackage(ocx, sc);
    expect(stats.chunks).toBeGreaterThan(2);
    const streamed = new Uint8Array(await readFile(sc));
    const whole = await inMemoryPackage(ocx);
    expect(streamed.length).toBe(whole.length);
    expect(Buffer.from(streamed).equals(Buffer.from(whole))).toBe(true);
    expect(new DataView(streamed.buffer).getUint32(68, true)).toBe(stats.chunks);
  });
});
