/**
 * Profiles swept through several inclinations. A twisting profile is resampled
 * along its trace (a vertex at every inclination, steps ≤ 100 mm), the web turns about the tangent in
 * a rotation-minimising frame, and an inclination whose web and flange are both reversed against its
 * neighbours (M4 3.1 nplcid660) is read as a sign error, not as a half turn. Checked by the swept
 * solid's own volume (divergence theorem), which a self-intersecting twist makes wrong.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOcxFile } from '../../../engine/node/ocx/importFile';
import { resampleTrace, traceFrames, type Inclination } from '../../../engine/ocx/memberMesh';

const DIR = path.resolve(__dirname, '../../../../shared/models/ocx');

function meshVolume(P: Float32Array, I: Uint32Array): number {
  let v = 0;
  for (let t = 0; t < I.length; t += 3) {
    const a = 3 * I[t],
      b = 3 * I[t + 1],
      c = 3 * I[t + 2];
    v +=
      (P[a] * (P[b + 1] * P[c + 2] - P[b + 2] * P[c + 1]) -
        P[a + 1] * (P[b] * P[c + 2] - P[b + 2] * P[c]) +
        P[a + 2] * (P[b] * P[c + 1] - P[b + 1] * P[c])) /
      6;
  }
  return v;
}

describe('swept profiles keep their volume', () => {
  it.each(['NAPA-OCX_M3.3docx', 'NAPA-OCX_M4.3docx', 'NAPA-OCX_M4_v300rc3.3docx', 'NAPA-OCX_M8.3docx'])(
    '%s: every stiffener mesh encloses section area × length (±2 %)',
    async (f) => {
      const r = await importOcxFile(path.join(DIR, f));
      let n = 0;
      for (const m of r.meshes) {
        const o = r.objects[m.object];
        if (o.type !== 'STIFFENER' && o.type !== 'PILLAR') continue;
        const want = (r.properties[m.object].VOLM_GEOM as number) * 1e9;
        expect(Math.abs(meshVolume(m.positions, m.indices) / want - 1), `${f} ${o.id}`).toBeLessThan(0.02);
        n++;
      }
      expect(n).toBeGreaterThan(0);
    },
    30_000,
  );
});

describe('twist kernels', () => {
  const inc = (y: number, web: [number, number, number], flange: [number, number, number]): Inclination => ({
    position: [0, y, 0],
    web,
    flange,
  });

  it('resampleTrace puts a vertex at each inclination and splits a twisting trace into ≤ 100 mm steps', () => {
    const trace = [0, 0, 0, 0, 10000, 0];
    const incl = [
      inc(0, [0, 0, 1], [1, 0, 0]),
      inc(
        3333,
        [1, 0, 1].map((v) => v / Math.SQRT2) as [number, number, number],
        [1, 0, -1].map((v) => v / Math.SQRT2) as [number, number, number],
      ),
      inc(10000, [1, 0, 0], [0, 0, -1]),
    ];
    const out = resampleTrace(trace, incl);
    const ys = out.filter((_, i) => i % 3 === 1);
    expect(ys).toContain(3333);
    for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1]).toBeLessThanOrEqual(100 + 1e-9);
    expect(resampleTrace(trace, [incl[0], inc(10000, [0, 0, 1], [1, 0, 0])])).toEqual(trace); // no twist: unchanged
  });

  it('the web turns by the interpolated angle, and a reversed middle inclination is read as a sign error', () => {
    const trace: number[] = [];
    for (let y = 0; y <= 10000; y += 100) trace.push(0, y, 0);
    const up: [number, number, number] = [0, 0, 1],
      fl: [number, number, number] = [1, 0, 0];
    // 90° turn from +z to +x over the length: halfway the web is at 45°
    const turn = traceFrames(trace, [inc(0, up, fl), inc(10000, [1, 0, 0], [0, 0, -1])]);
    const mid = 3 * 50;
    expect(turn.W[mid]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(turn.W[mid + 2]).toBeCloseTo(Math.SQRT1_2, 6);
    // the middle one of three is reversed (web and flange): the web stays +z all along
    const f = traceFrames(trace, [inc(0, up, fl), inc(5000, [0, 0, -1], [-1, 0, 0]), inc(10000, up, fl)]);
    for (let i = 0; i < trace.length / 3; i++) expect(f.W[3 * i + 2], `sample ${i}`).toBeCloseTo(1, 6);
  });
});
