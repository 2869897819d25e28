/**
 * Viewer keyboard (viewer.md §2 "Keyboard shortcuts", §4 "Walk mode", §9 walk keys): shortcuts of the
 * registered commands (Ctrl+Alt+S, Ctrl+Alt+R, Ctrl+Z, Ctrl+Y) run through runCommand; while walk mode is
 * on, w/s/a/d and x/c/q/e go to engine.key with the mouse buttons held (the engine moves with the left
 * button keys w/s/a/d and the right button keys x/c/q/e). Keys typed into inputs are never taken.
 */
import { useEffect } from 'react';
import { getEngine, viewerStore } from '../stores/viewer';
import { commandForKey, type KeyLike } from './commands';
import { runCommand } from './runCommand';

/** The walk mode keys of viewer.md §9. */
export const WALK_KEYS: ReadonlySet<string> = new Set(['w', 's', 'a', 'd', 'x', 'c', 'q', 'e']);

/** The part of an event target that decides whether it takes typed text. */
export interface TargetLike {
  tagName?: string;
  isContentEditable?: boolean;
  type?: string;
}

const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** True when keys typed at `t` belong to it (text inputs, text areas, selects, editable content). */
export function isEditableTarget(t: TargetLike | null | undefined): boolean {
  if (!t) return false;
  if (t.isContentEditable) return true;
  const tag = (t.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  return tag === 'INPUT' && !NON_TEXT_INPUTS.has((t.type ?? 'text').toLowerCase());
}

/** What a key event means to the viewer: a command, a walk key for the engine, or nothing. */
export type KeyRoute = { type: 'command'; id: string } | { type: 'walk'; key: string } | { type: 'none' };

/** Routes a key event (kind 'down' or 'up') given the target and whether walk mode is on. */
export function routeKey(e: KeyLike, kind: 'down' | 'up', target: TargetLike | null, walkMode: boolean): KeyRoute {
  if (isEditableTarget(target)) return { type: 'none' };
  if (kind === 'down') {
    const c = commandForKey(e);
    if (c) return { type: 'command', id: c.id };
  }
  const k = e.key.toLowerCase();
  if (walkMode && !e.ctrlKey && !e.altKey && !e.metaKey && WALK_KEYS.has(k)) return { type: 'walk', key: k };
  return { type: 'none' };
}

/** Installs the viewer's window key and button listeners while the component is mounted. */
export function useViewerKeys(): void {
  useEffect(() => {
    let buttons = 0;
    const onPointer = (e: PointerEvent) => {
      buttons = e.buttons;
    };
    const onKey = (kind: 'down' | 'up') => (e: KeyboardEvent) => {
      const route = routeKey(e, kind, e.target as TargetLike | null, viewerStore.walkMode);
      if (route.type === 'none') return;
      e.preventDefault();
      if (route.type === 'command') {
        if (!e.repeat) void runCommand(route.id);
      } else {
        void getEngine()
          ?.api.key({ kind, key: route.key, buttons })
          .catch(() => {});
      }
    };
    const down = onKey('down');
    const up = onKey('up');
    window.addEventListener('pointerdown', onPointer, true);
    window.addEventListener('pointerup', onPointer, true);
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('pointerdown', onPointer, true);
      window.removeEventListener('pointerup', onPointer, true);
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, []);
}
