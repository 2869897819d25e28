/**
 * The goals bench's memory sampler (bench/goals/processMemory.ts) on a real process tree: a child Node process
 * that holds a known amount of touched memory is found among this process's descendants and its resident and
 * proportional sizes are counted; processes outside the tree or not matching are left out.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleTreeMemory, treeMemory } from '../../bench/goals/processMemory';

let child: ChildProcess | null = null;
afterEach(() => {
  child?.kill();
  child = null;
});

/** Starts a child Node that fills `mb` MB and then prints "ready" and waits. */
async function holder(mb: number): Promise<ChildProcess> {
  const code = `const b = Buffer.alloc(${mb} * 1e6, 1); console.log('ready'); setInterval(() => b[0]++, 1000);`;
  const c = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    c.stdout!.on('data', (d) => String(d).includes('ready') && resolve());
    c.on('exit', (e) => reject(new Error(`holder exited with ${e}`)));
  });
  return c;
}

describe('treeMemory', () => {
  it("counts a descendant's memory and nothing outside the tree", async () => {
    child = await holder(200);
    const mine = treeMemory(process.pid, process.execPath);
    expect(mine.processes).toBeGreaterThanOrEqual(1);
    expect(mine.rssMB).toBeGreaterThan(200);
    expect(mine.pssMB).toBeGreaterThan(150);
    expect(mine.byKind.browser).toBe(mine.pssMB);
    // The child's own tree has no descendants; a command that matches nothing counts nothing.
    expect(treeMemory(child.pid!, process.execPath).processes).toBe(0);
    expect(treeMemory(process.pid, '/no/such/program').processes).toBe(0);
  });

  it('keeps the peak of a sampled tree after the process is gone', async () => {
    const sampler = sampleTreeMemory(process.pid, process.execPath, 20);
    child = await holder(120);
    await new Promise((r) => setTimeout(r, 100));
    child.kill();
    await new Promise((r) => child!.once('exit', r));
    const { peakRss, peakPss, samples } = sampler.stop();
    expect(samples).toBeGreaterThanOrEqual(2);
    expect(peakRss.rssMB).toBeGreaterThan(120);
    expect(peakPss.pssMB).toBeGreaterThan(90);
    expect(treeMemory(process.pid, process.execPath).rssMB).toBeLessThan(peakRss.rssMB);
  });
});
