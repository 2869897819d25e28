/**
 * What the engine's tool managers (clipping, sections, measure, snapping, annotations, cursor) need of
 * the Engine facade: the three.js scene, the loaded model, the cameras, and the frame/event plumbing.
 * Managers never reach the renderer; they are tested in Node with a plain host.
 */
import type { Scene } from 'three';
import type { EngineEvent } from '../EngineApi';
import type { CameraRig } from '../interaction/CameraRig';
import type { ModelScene } from '../scene/ModelScene';

export interface ToolHost {
  readonly scene: Scene;
  readonly cameras: CameraRig;
  /** The loaded model, or null. */
  model(): ModelScene | null;
  /** Marks the frame dirty. */
  invalidate(): void;
  emit(event: EngineEvent): void;
  /** ms clock. */
  now(): number;
}
