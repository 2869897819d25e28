/**
 * Rendering statistics of viewer.md's Ctrl+Alt+R panel: last frame's CPU time (ms),
 * frames in the last second, draw calls and triangles of the last frame (THREE.WebGLRenderer.info),
 * geometry bytes (vertex and index buffers, LOD indices included) and triangles of the loaded model, and chunks drawn after culling / all chunks.
 */
import type { RenderStats } from '../EngineApi';
import type { FrameLoop } from './FrameLoop';
import type { ModelScene } from './ModelScene';

/** Assembles the RenderStats of the engine at time `now` (ms). Zeros for the model figures without a model. */
export function renderStats(loop: FrameLoop, model: ModelScene | null, now: number): RenderStats {
  const s = loop.stats;
  return {
    frameTimeMs: s.frameTimeMs,
    fps: loop.fps(now),
    drawCalls: s.drawCalls,
    triangles: s.triangles,
    geometryBytes: model ? model.geometryBytes + model.lodBytes : 0,
    modelTriangles: model?.triangles ?? 0,
    chunksDrawn: model?.chunksDrawn ?? 0,
    chunkCount: model?.chunks.length ?? 0,
  };
}
