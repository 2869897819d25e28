/**
 * The kernel's page arena (wasm/src/arena.rs): batches of a freed store go back to the arena and are
 * reused by the next store (the module's memory does not grow again), and memory handed out again is
 * zero-filled where the kernel asks for zeroed memory (a batch's unwritten positions read as 0), also
 * where only the free runs' headers need clearing (the rest of a growth step, never handed out before).
 */
import { describe, expect, it } from 'vitest';
import { builtKernel } from './kernelFixture';

describe('page arena', () => {
  it('reuses the pages of freed stores and zero-fills reused batches', () => {
    const k = builtKernel();
    const x = k.exports;
    const before = k.memoryStats();
    const fill = (store: ReturnType<typeof k.createStore>, batches: number, vertices: number) => {
      for (let i = 0; i < batches; i++) {
        const positions = new Float32Array(vertices * 3).fill(i + 1);
        store.addBatch(positions, new Uint32Array(vertices));
      }
    };
    // 40 batches of 100k vertices (1.2 MB of positions, 0.4 MB of indices each): large blocks.
    const a = k.createStore();
    fill(a, 40, 100_000);
    const grown = k.memoryStats();
    expect(grown.arena - before.arena).toBeGreaterThanOrEqual(40 * 1.6e6);
    a.free();
    const freed = k.memoryStats();
    expect(freed.arena).toBe(before.arena);
    expect(freed.arenaFree).toBeGreaterThanOrEqual(40 * 1.6e6);
    // The same again fits in the freed pages: no growth.
    const b = k.createStore();
    fill(b, 40, 100_000);
    expect(k.memoryStats().total).toBe(grown.total);
    // A batch added but not written reads as zeros even on reused pages.
    b.free();
    const c = k.createStore();
    const n = x.kk_geom_add_batch(c.handle, 200_000, 3, 1);
    const at = x.kk_geom_positions(c.handle, n) >>> 0;
    const view = new Float32Array(x.memory.buffer, at, 600_000);
    expect(view.every((v) => v === 0)).toBe(true);
    c.free();
  });

  it('hands out the rest of a growth step zeroed, its free-run headers cleared', () => {
    // A fresh instance: its first batch grows the memory by a whole step, and the rest of the step goes to
    // the free runs with a header at its start, where the next batch begins.
    const k = builtKernel();
    const x = k.exports;
    const s = k.createStore();
    s.addBatch(new Float32Array(300_000).fill(7), new Uint32Array(3));
    const fresh = x.kk_arena_free_bytes();
    expect(fresh).toBeGreaterThan(2_400_000);
    const n = x.kk_geom_add_batch(s.handle, 200_000, 3, 1);
    expect(x.kk_arena_free_bytes()).toBeLessThan(fresh);
    const view = new Float32Array(x.memory.buffer, x.kk_geom_positions(s.handle, n) >>> 0, 600_000);
    expect(view.every((v) => v === 0)).toBe(true);
    // Freed and taken again whole: the written batch below the high-water mark is cleared in full, the
    // pages above it (with the split's and the merges' stale headers) at their starts.
    s.free();
    const t = k.createStore();
    const m = x.kk_geom_add_batch(t.handle, 1_000_000, 3, 1);
    const all = new Float32Array(x.memory.buffer, x.kk_geom_positions(t.handle, m) >>> 0, 3_000_000);
    expect(all.every((v) => v === 0)).toBe(true);
    t.free();
  });
});
