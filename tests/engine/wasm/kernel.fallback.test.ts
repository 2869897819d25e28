/**
 * Loading the WebAssembly kernel and falling back to the TypeScript one: a host that cannot provide
 * the module (no WebAssembly, missing file, a module that is not the kernel) gets one log line and the
 * TypeScript kernel; a section index built then has no kernel store and cuts the same section as one
 * built with the kernel (NAPA-OCX_M8, X = 2400 mm). An installed kernel that fails while an index is
 * built (a trap, e.g. memory that cannot grow) is dropped for that index with one log line; past the old
 * 48 MB limit the index still goes into the kernel.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { KERNEL_WASM_PATH, loadKernelSync } from '../../../engine/node/wasm/loadKernel';
import type { ImportResult, ModelObject } from '../../../engine/model/types';
import { computeSection } from '../../../engine/section/section';
import { KERNEL_INDEX_MAX_BYTES, SectionIndex, indexKernelFor } from '../../../engine/section/SectionIndex';
import { GeometryKernel } from '../../../engine/wasm/GeometryKernel';
import { geometryKernel, installGeometryKernel, loadGeometryKernel } from '../../../engine/wasm/install';
import { builtKernel } from './kernelFixture';

/** The smallest valid WebAssembly module (no exports): compiles, but is not the kernel. */
const EMPTY_MODULE = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);

let model: ImportResult;
beforeAll(async () => {
  builtKernel();
  model = await importOcxFile(path.resolve(__dirname, '../../../../shared/models/ocx/NAPA-OCX_M8.3docx'));
});
afterEach(() => {
  installGeometryKernel(null);
  vi.unstubAllGlobals();
});

describe('loading the kernel', () => {
  it('installs the built module from its bytes, and indexes built then use it', async () => {
    const lines: string[] = [];
    const k = await loadGeometryKernel(
      () => readFileSync(KERNEL_WASM_PATH),
      (l) => lines.push(l),
    );
    expect(k).not.toBeNull();
    expect(lines).toEqual([]);
    expect(geometryKernel()).toBe(k);
    expect(SectionIndex.fromMeshes(model.meshes).store?.kernel).toBe(k);
  });

  it('copies geometry into the installed kernel up to KERNEL_INDEX_MAX_BYTES, and any size when it is passed', () => {
    const k = loadKernelSync();
    expect(k).not.toBeNull();
    expect(indexKernelFor(KERNEL_INDEX_MAX_BYTES)).toBe(k);
    expect(indexKernelFor(KERNEL_INDEX_MAX_BYTES + 1)).toBeNull();
    // A model past the old 48 MB limit (one flat strip of 64 MB) now goes into the kernel by default.
    const vertices = Math.ceil((64 * 1024 * 1024) / 12 / 2) + 3;
    const positions = new Float32Array(vertices * 3);
    for (let v = 0; v < vertices; v++) positions.set([v >> 1, (v & 1) * 100, 0], v * 3);
    const indices = new Uint32Array((vertices - 2) * 3).map((_, i) => Math.floor(i / 3) + (i % 3));
    const big = [{ object: 0, positions, indices, edges: null }] as unknown as typeof model.meshes;
    const index = SectionIndex.fromMeshes(big);
    const plate: ModelObject = {
      index: 0,
      id: 'strip',
      guid: null,
      name: 'strip',
      type: 'PLATE',
      element: 'Plate',
      parent: -1,
      block: null,
      bounds: null,
    };
    expect(index.store?.kernel).toBe(k);
    const viaKernel = computeSection({ objects: [plate], index }, 'X', 1000.5);
    const viaTs = computeSection({ objects: [plate], index }, 'X', 1000.5, { kernel: 'typescript' });
    // The strip's two triangles cross the plane at y = 0, 50 and 100; the middle point is on the line.
    expect(viaKernel.steel.plates.intersected[0].curves[0].points).toEqual(
      Float64Array.of(1000.5, 0, 0, 1000.5, 100, 0),
    );
    expect(viaKernel).toEqual(viaTs);
    index.store?.free();
  });

  it('installs a compiled module synchronously from the file (Node host)', () => {
    const k = loadKernelSync();
    expect(k).not.toBeNull();
    expect(geometryKernel()).toBe(k);
  });

  it.each([
    ['a source that fails', () => Promise.reject(new Error('fetch failed')), /fetch failed/],
    ['a module that is not the kernel', () => EMPTY_MODULE, /export memory is missing/],
    ['bytes that are not WebAssembly', () => new Uint8Array([1, 2, 3, 4]), /WebAssembly not loaded/],
  ])('falls back with one log line for %s', async (_, source, message) => {
    const lines: string[] = [];
    expect(await loadGeometryKernel(source, (l) => lines.push(l))).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).toMatch(/using the TypeScript kernel/);
    expect(geometryKernel()).toBeNull();
  });

  it('falls back when the runtime has no WebAssembly at all', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    const lines: string[] = [];
    expect(
      await loadGeometryKernel(
        () => EMPTY_MODULE,
        (l) => lines.push(l),
      ),
    ).toBeNull();
    expect(lines).toEqual([
      'Geometry kernel: WebAssembly not loaded (WebAssembly is not available); using the TypeScript kernel',
    ]);
  });

  it('falls back when the file is missing (Node host)', () => {
    const lines: string[] = [];
    expect(loadKernelSync('/nonexistent/keelson_kernel.wasm', { log: (l) => lines.push(l) })).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ENOENT.*using the TypeScript kernel/);
    expect(geometryKernel()).toBeNull();
  });
  it('drops the installed kernel for TypeScript when it fails while an index is built (an explicit one throws)', () => {
    const real = builtKernel();
    let calls = 0;
    // The real module's exports, but the third batch copy traps as a kernel out of memory would.
    const exports = {
      ...(real.exports as unknown as Record<string, unknown>),
      kk_geom_add_batch: (...a: number[]) => {
        if (++calls === 3) throw new WebAssembly.RuntimeError('unreachable');
        return real.exports.kk_geom_add_batch(a[0], a[1], a[2], a[3]);
      },
    };
    const failing = GeometryKernel.fromInstance({ exports } as unknown as WebAssembly.Instance);
    installGeometryKernel(failing);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const index = SectionIndex.fromMeshes(model.meshes);
    expect(index.store).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(
      /WebAssembly kernel failed \(unreachable\); using the TypeScript kernel/,
    );
    const m = { objects: model.objects, properties: model.properties, frames: model.frames };
    const viaKernel = computeSection({ ...m, index: SectionIndex.fromMeshes(model.meshes, real) }, 'X', 2400);
    expect(JSON.stringify(computeSection({ ...m, index }, 'X', 2400))).toBe(JSON.stringify(viaKernel));
    calls = 0;
    expect(() => SectionIndex.fromMeshes(model.meshes, failing)).toThrow('unreachable');
    warn.mockRestore();
  });
});

describe('the fallback cuts the same sections', () => {
  it('without a kernel the index has no store and the section equals the kernel one', () => {
    const ts = SectionIndex.fromMeshes(model.meshes);
    expect(ts.store).toBeNull();
    const wasm = SectionIndex.fromMeshes(model.meshes, builtKernel());
    expect(wasm.store).not.toBeNull();
    const m = { objects: model.objects, properties: model.properties, frames: model.frames };
    const a = computeSection({ ...m, index: ts }, 'X', 2400);
    const b = computeSection({ ...m, index: wasm }, 'X', 2400);
    const forced = computeSection({ ...m, index: wasm }, 'X', 2400, { kernel: 'typescript' });
    expect(a.steel.plates.intersected.length).toBe(4);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(JSON.stringify(forced)).toBe(JSON.stringify(a));
  });
});
