/**
 * The fuzz's hang bound is CPU time of the import thread (tests/fuzz/threadCpu.ts), with a wall-clock
 * safety bound: a watch ends on whichever is passed first and says which; the harness classifies a case
 * past a tiny CPU bound as a hang by CPU time. Bounds here are tiny on purpose; nothing is timed.
 */
import { describe, expect, it } from 'vitest';
import { hangBounds, loadBases, runOcxFuzz } from './ocxHarness';
import { cpuMsOfStat, threadCpuReadable, watchHang } from './threadCpu';

const ended = (w: { signal: AbortSignal }) =>
  new Promise<void>((resolve) => w.signal.addEventListener('abort', () => resolve(), { once: true }));

describe('hang bounds', () => {
  it('reads utime + stime of a /proc stat line (a command name with spaces and parentheses)', () => {
    const fields = ['S', ...Array.from({ length: 10 }, () => '0'), '250', '37', '0', '0'];
    expect(cpuMsOfStat(`4242 (node (worker) 1) ${fields.join(' ')}`)).toBe(2870);
    expect(cpuMsOfStat('garbage')).toBeUndefined();
  });

  it('CPU time of the thread where it can be read, with a wall-clock safety bound of 10×; else wall clock', () => {
    expect(hangBounds({ hangCpuMs: 120_000 }, true)).toEqual({ cpuMs: 120_000, wallMs: 1_200_000 });
    expect(hangBounds({ hangCpuMs: 120_000, hangWallMs: 500_000 }, true)).toEqual({ cpuMs: 120_000, wallMs: 500_000 });
    expect(hangBounds({ hangCpuMs: 120_000 }, false)).toEqual({ wallMs: 120_000 });
  });

  it('a watch ends on the CPU bound when the thread computes, not before', async () => {
    let cpu = 0;
    const w = watchHang({ cpuMs: 50, wallMs: 60_000 }, () => (cpu += 20), 5);
    await ended(w);
    expect(w.ended()).toBe('cpu');
    expect(w.lastCpuMs()).toBeGreaterThan(50);
    expect(cpu).toBeLessThanOrEqual(80); // ended at the first reading past the bound
  });

  it('a watch ends on the wall-clock bound when the thread does not compute (or its CPU cannot be read)', async () => {
    const idle = watchHang({ cpuMs: 50, wallMs: 30 }, () => 0, 5);
    await ended(idle);
    expect(idle.ended()).toBe('wall');
    const unknown = watchHang({ cpuMs: 50, wallMs: 30 }, () => undefined, 5);
    await ended(unknown);
    expect(unknown.ended()).toBe('wall');
  });

  it('a stopped watch never ends', async () => {
    const w = watchHang({ cpuMs: 1, wallMs: 20 }, () => 100, 5);
    w.stop();
    await new Promise((r) => setTimeout(r, 60));
    expect(w.ended()).toBeUndefined();
    expect(w.signal.aborted).toBe(false);
  });

  it.runIf(threadCpuReadable())(
    'the harness calls a case past a tiny CPU bound a hang, by CPU time',
    async () => {
      // seed 2 on this sample: one absurd number, 1.2 MB read twice in 256 B chunks (about a second of CPU)
      const run = (hangCpuMs: number) =>
        runOcxFuzz({
          seeds: [2],
          bases: loadBases(['NAPA-OCX_M4.3docx']),
          limits: { maxGrowBytes: 1024 },
          hangCpuMs,
          hangWallMs: 600_000,
          pollMs: 10,
          memoryMb: 1024,
        });
      const [free] = await run(600_000);
      expect(free.kind).not.toBe('hang');
      expect(free.cpuMs).toBeGreaterThan(200);
      const [bounded] = await run(50);
      expect(bounded.kind).toBe('hang');
      expect(bounded.message).toMatch(/past the 0\.05 s CPU-time bound of the import thread/);
      expect(bounded.cpuMs).toBeGreaterThan(50);
    },
    120_000,
  );
});
