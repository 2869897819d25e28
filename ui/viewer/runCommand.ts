/**
 * Binds the viewer commands (ui/viewer/commands.ts) to the live stores and the open engine: the one
 * function toolbar buttons, keyboard shortcuts and the context menu call. Errors become an error toast.
 */
import { showToast } from '../stores/toasts';
import { getEngine, markHidden, viewerStore } from '../stores/viewer';
import { featuresStore } from '../stores/viewerFeatures';
import { toolsStore } from '../stores/tools';
import { executeCommand, type CommandEngine, type CommandState } from './commands';

/** The live command state: the viewer and features stores (valtio proxies, so run() may toggle them). */
export function liveCommandState(): CommandState {
  return { viewer: viewerStore, features: featuresStore, tools: toolsStore, markHidden };
}

/** Command state from render snapshots (for enabled / visible / label while rendering). */
export function snapshotCommandState(
  viewer: CommandState['viewer'],
  features: CommandState['features'],
  tools: CommandState['tools'] = toolsStore,
): CommandState {
  return { viewer, features, tools, markHidden };
}

const noEngine = new Proxy({} as CommandEngine, {
  get: () => () => Promise.reject(new Error('The render engine is not running')),
});

/**
 * Runs command `id` (with a submenu argument) against the open engine; a disabled command does nothing.
 * Failures show an error toast; the returned promise never rejects.
 */
export async function runCommand(id: string, arg?: string): Promise<void> {
  try {
    await executeCommand(id, getEngine()?.api ?? noEngine, liveCommandState(), arg);
  } catch (e) {
    showToast('error', (e as Error).message || `Viewer action ${id} failed`);
  }
}
