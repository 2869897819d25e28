/**
 * The two-pass import of a file (catalogue pre-pass, then parts handed
 * over as soon as they close, OCX_GUIDE §1.3) gives the same result as the single-stream import, also
 * when the catalogue, units and surfaces come after the parts and namespaces are declared on the Vessel.
 * With BENCH_LARGE=1 a generated ~50 MB ship is imported and the live heap held besides the results is
 * checked against the file size × TRANSIENT_FACTOR.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOcx } from '../../../engine/ocx/index';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { collectShared } from '../../../engine/ocx/prepass';
import type { ImportResult } from '../../../engine/model/types';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');

async function* chunks(text: string | Uint8Array, size = 4096): AsyncGenerator<Uint8Array | string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** Everything but the warnings' order: objects, properties, mesh sizes, fidelity. */
function essence(r: ImportResult) {
  return {
    info: r.info,
    objects: r.objects,
    properties: r.properties,
    meshes: r.meshes.map((m) => [m.object, m.positions.length, m.indices.length]),
    fidelity: r.fidelity,
    warnings: r.warnings.map((w) => `${w.code}:${w.message}`).sort(),
    unsupported: r.unsupportedElements,
    frames: r.frames,
  };
}

describe('two-pass import (pre-pass + parts released as they close)', () => {
  it.each(['NAPA-OCX_M8.3docx', 'NAPA-TR03_TC12.3docx', 'AVEVA-E3D-Model01.3docx', 'NAPA-OCX_M4_v300rc3.3docx'])(
    '%s: same result as the single-stream import',
    async (f) => {
      const bytes = readFileSync(path.join(DIR, f));
      const one = await importOcx(chunks(bytes, 65536), { fileName: f });
      // the two passes themselves (importOcxFile reads a file this small whole and imports it in one pass)
      const two = await importOcx(chunks(bytes, 65536), { fileName: f, reopen: () => chunks(bytes, 65536) });
      expect(two.objects.length).toBeGreaterThan(0);
      expect(essence(two)).toEqual(essence(one));
      expect(essence(await importOcxFile(path.join(DIR, f)))).toEqual(essence(one));
    },
    30_000,
  );

  it('the pre-pass collects catalogue, units, surfaces and views wherever they are, with their lines', async () => {
    const text = readFileSync(path.join(DIR, 'NAPA-TR03_TC12.3docx'), 'utf8');
    const shared = await collectShared(chunks(text, 1000));
    expect(shared).not.toBeNull();
    expect(shared!.catalogue.size).toBeGreaterThan(0);
    expect(shared!.units.size).toBeGreaterThan(0);
    expect(shared!.coordinateSystems.length).toBe(1);
    // line numbers are those of the file
    const lines = text.split('\n');
    for (const n of [...shared!.catalogue.values()].slice(0, 5)) expect(lines[n.line - 1]).toContain(`id="${n.a.id}"`);
  });

  it('reorders: catalogue and surfaces after the parts, namespace on the Vessel, BOM and CRLF', async () => {
    const src = readFileSync(path.join(DIR, 'NAPA-OCX_M1.3docx'), 'utf8');
    // the Vessel declares its own prefix for the OCX namespace; the catalogue stays after the Vessel
    const ns = /\sxmlns:ocx="([^"]*)"/.exec(src)![1];
    const v0 = src.indexOf('<ocx:Vessel'),
      v1 = src.indexOf('</ocx:Vessel>') + '</ocx:Vessel>'.length;
    expect(src.indexOf('<ocx:ClassCatalogue')).toBeGreaterThan(v1);
    const vessel = src
      .slice(v0, v1)
      .replace(/<(\/?)ocx:/g, '<$1v:')
      .replace(/\socx:/g, ' v:')
      .replace(/^<v:Vessel\b/, `<v:Vessel xmlns:v="${ns}"`);
    // and writes its ReferenceSurfaces after the panels
    const r0 = vessel.indexOf('<v:ReferenceSurfaces'),
      r1 = vessel.indexOf('</v:ReferenceSurfaces>') + '</v:ReferenceSurfaces>'.length;
    expect(r0).toBeGreaterThan(0);
    const surfaces = vessel.slice(r0, r1);
    const moved = vessel.slice(0, r0) + vessel.slice(r1).replace('</v:Vessel>', `${surfaces}</v:Vessel>`);
    let t = src.slice(0, v0) + moved + src.slice(v1);
    t = `\ufeff${t.replace(/\n/g, '\r\n')}`;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-2pass-'));
    try {
      const file = path.join(dir, 'm1.3docx');
      await writeFile(file, t);
      const one = await importOcx(chunks(t, 777));
      const bytes = new TextEncoder().encode(t);
      const two = await importOcx(chunks(bytes, 777), { reopen: () => chunks(bytes, 777) });
      expect(two.meshes.length).toBeGreaterThan(0);
      expect(two.properties.find((p) => p.OTYPE === 'PLATE')?.MAT).toBeTruthy();
      expect(essence(two)).toEqual(essence(one));
      const fromFile = await importOcxFile(file);
      expect(essence({ ...fromFile, info: { ...fromFile.info, name: one.info.name } })).toEqual(essence(one));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a malformed file is refused with the line by the two-pass path too', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-2pass-'));
    try {
      const file = path.join(dir, 'bad.3docx');
      const src = readFileSync(path.join(DIR, 'NAPA-OCX_M1.3docx'), 'utf8');
      const cut = src.indexOf('</ocx:Plate>');
      const bad = `${src.slice(0, cut)}<ocx:Broken></ocx:Plate>${src.slice(cut + 12)}`;
      await writeFile(file, bad);
      const refused = { name: 'OcxImportError', message: expect.stringMatching(/Malformed XML.*line \d+/) };
      await expect(importOcxFile(file)).rejects.toMatchObject(refused);
      const bytes = new TextEncoder().encode(bad);
      await expect(importOcx(chunks(bytes, 4096), { reopen: () => chunks(bytes, 4096) })).rejects.toMatchObject(
        refused,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Memory bound of the two-pass path, × file size, measured by bench/ocx/memoryProbe.ts in a child
 * process with forced GCs: TRANSIENT is the live heap the import holds besides its results (parsed part
 * subtrees, shared catalogue and surface meshes, the current part); RESULT is the heap of the finished
 * ImportResult itself (object table, properties, fidelity records, mesh views: ~2.8 KB per object,
 * the vertex data lies outside the heap). Measured on a 42 MB generated ship: transient 0.32 × (13.5 MB),
 * result 1.5 ×; the single-stream path holds 5.1 × transient (217 MB).
 */
const TRANSIENT_FACTOR = 0.5;
const RESULT_FACTOR = 2.5;

describe.runIf(process.env.BENCH_LARGE === '1')('memory bound on a large generated ship', () => {
  it('imports a ~50 MB ship holding well below the file size besides its results', async () => {
    const { writeShipOcx } = await import('../../../tools/generator/index');
    const { execFile } = await import('node:child_process');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'keelson-large-'));
    try {
      const file = path.join(dir, 'large.3docx');
      await writeShipOcx(file, { targetParts: 25_000, seed: 3, name: 'LARGE' });
      const size = (await stat(file)).size;
      expect(size).toBeGreaterThan(40e6);
      const probe = path.resolve(__dirname, '../../../bench/ocx/memoryProbe.ts');
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--expose-gc', '--import', 'tsx', probe, file, 'two'],
          { cwd: path.resolve(__dirname, '../../..'), maxBuffer: 1 << 20 },
          (e, so, se) => (e ? reject(new Error(`${e.message}\n${se}`)) : resolve(so)),
        ),
      );
      const p = JSON.parse(out.trim().split('\n').pop()!) as {
        sizeBytes: number;
        objects: number;
        resultBytes: number;
        transientPeakBytes: number;
      };
      console.log(
        `large ship: ${(size / 1e6).toFixed(1)} MB, ${p.objects} objects, transient peak ${(p.transientPeakBytes / 1e6).toFixed(1)} MB (${(p.transientPeakBytes / size).toFixed(2)} ×), result ${(p.resultBytes / 1e6).toFixed(1)} MB (${(p.resultBytes / size).toFixed(2)} ×)`,
      );
      expect(p.sizeBytes).toBe(size);
      expect(p.objects).toBeGreaterThan(20_000);
      expect(p.transientPeakBytes).toBeLessThan(size * TRANSIENT_FACTOR);
      expect(p.resultBytes).toBeLessThan(size * RESULT_FACTOR);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
