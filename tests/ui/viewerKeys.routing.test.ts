/** viewer.md §2 shortcuts and §9 walk keys: routing of key events without stealing keys from inputs. */
import { describe, expect, it } from 'vitest';
import { isEditableTarget, routeKey } from '../../ui/viewer/useViewerKeys';

const ev = (
  key: string,
  mods: Partial<{ ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean; code: string }> = {},
) => ({
  key,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});
const canvas = { tagName: 'CANVAS' };

describe('viewer key routing', () => {
  it('sends walk keys to the engine only in walk mode', () => {
    expect(routeKey(ev('w'), 'down', canvas, true)).toEqual({ type: 'walk', key: 'w' });
    expect(routeKey(ev('E'), 'up', canvas, true)).toEqual({ type: 'walk', key: 'e' });
    expect(routeKey(ev('w'), 'down', canvas, false)).toEqual({ type: 'none' });
    expect(routeKey(ev('f'), 'down', canvas, true)).toEqual({ type: 'none' });
    expect(routeKey(ev('w', { ctrlKey: true }), 'down', canvas, true)).toEqual({ type: 'none' });
  });
  it('never takes keys typed into text fields', () => {
    expect(isEditableTarget({ tagName: 'INPUT', type: 'search' })).toBe(true);
    expect(isEditableTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isEditableTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isEditableTarget({ tagName: 'SELECT' })).toBe(true);
    expect(routeKey(ev('w'), 'down', { tagName: 'INPUT' }, true)).toEqual({ type: 'none' });
    expect(
      routeKey(ev('s', { ctrlKey: true, altKey: true, code: 'KeyS' }), 'down', { tagName: 'TEXTAREA' }, false),
    ).toEqual({ type: 'none' });
  });
  it('runs shortcuts on key down', () => {
    expect(routeKey(ev('s', { ctrlKey: true, altKey: true, code: 'KeyS' }), 'down', canvas, true)).toEqual({
      type: 'command',
      id: 'toggle-scene-graph',
    });
    expect(routeKey(ev('r', { ctrlKey: true, altKey: true, code: 'KeyR' }), 'down', null, false)).toEqual({
      type: 'command',
      id: 'toggle-render-stats',
    });
    expect(routeKey(ev('s', { ctrlKey: true, altKey: true, code: 'KeyS' }), 'up', canvas, false)).toEqual({
      type: 'none',
    });
  });
});
