/**
 * One PointerInput (engine/EngineApi.ts) for the gesture tests: a primary mouse button pressed except on
 * 'up', no modifier keys, pointer 1 at time 0 unless `over` says otherwise. Positions are canvas CSS px.
 */
import type { PointerInput } from '../../../engine/EngineApi';

export function pointerInput(
  kind: PointerInput['kind'],
  x: number,
  y: number,
  over: Partial<PointerInput> = {},
): PointerInput {
  return {
    kind,
    x,
    y,
    button: 0,
    buttons: kind === 'up' ? 0 : 1,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    metaKey: false,
    pointerId: 1,
    pointerType: 'mouse',
    time: 0,
    ...over,
  };
}
