/**
 * Rendering statistics overlay (viewer.md §2, Ctrl+Alt+R): frame time, fps, draw calls, triangles and
 * geometry memory from engine.getRenderStats(), refreshed twice a second while shown.
 */
import { useEffect, useState } from 'react';
import type { RenderStats } from '../../engine/EngineApi';
import { getEngine } from '../stores/viewer';

/** Refresh interval of the overlay, ms (≈ 2 per second). */
export const STATS_REFRESH_MS = 500;

/** Display rows of the statistics (pure): label and text. */
export function statsRows(s: RenderStats): Array<[string, string]> {
  const int = new Intl.NumberFormat('en-US');
  const mb = s.geometryBytes / 1048576;
  return [
    ['Frame time', `${s.frameTimeMs.toFixed(1)} ms`],
    ['FPS', String(Math.round(s.fps))],
    ['Draw calls', int.format(s.drawCalls)],
    ['Triangles', int.format(s.triangles)],
    ['Geometry memory', mb >= 1 ? `${mb.toFixed(1)} MB` : `${(s.geometryBytes / 1024).toFixed(1)} kB`],
    ['Chunks drawn', `${int.format(s.chunksDrawn)} / ${int.format(s.chunkCount)}`],
  ];
}

export function RenderStatsOverlay() {
  const [stats, setStats] = useState<RenderStats | null>(null);
  useEffect(() => {
    let alive = true;
    const tick = () => {
      const api = getEngine()?.api;
      if (!api) return;
      api.getRenderStats().then(
        (s) => alive && setStats(s),
        () => {},
      );
    };
    tick();
    const timer = setInterval(tick, STATS_REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, []);
  return (
    <section
      data-testid="render-stats"
      aria-label="Rendering statistics"
      className="pointer-events-none absolute right-3 bottom-3 z-20 rounded-md bg-slate-900/80 px-3 py-2 font-mono text-[11px] text-slate-100 shadow"
    >
      {stats ? (
        <table>
          <tbody>
            {statsRows(stats).map(([k, v]) => (
              <tr key={k} data-stat={k}>
                <th scope="row" className="pr-3 text-left font-normal text-slate-400">
                  {k}
                </th>
                <td className="text-right">{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <span>Collecting statistics…</span>
      )}
    </section>
  );
}
