/**
 * The current project revision (application.md §3 "Current project revision"), shown by the model header
 * of the top bar. Set by the viewer view; reset on entering the start view (§2 route /).
 */
import { proxy } from 'valtio';
import type { ProjectRevisionInfo } from '../../api/contract';

export const currentProjectStore = proxy({
  /** Model name of the open viewer route, or null outside the viewer. */
  modelName: null as string | null,
  info: null as ProjectRevisionInfo | null,
});

/** Sets the model of the open viewer route and its revision info (null while it loads). */
export function setCurrentProject(modelName: string, info: ProjectRevisionInfo | null): void {
  currentProjectStore.modelName = modelName;
  currentProjectStore.info = info;
}

/** Clears the current model data (start view entry). */
export function resetCurrentProject(): void {
  currentProjectStore.modelName = null;
  currentProjectStore.info = null;
}
