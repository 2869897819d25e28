/**
 * The box selection rectangle of viewer.md §4 while the user drags with Shift (engine 'box-changed'):
 * fill opacity 0.2; a solid border when dragged left-to-right ('inside': fully contained objects), a
 * dashed border right-to-left ('touch': touched objects). Positions are canvas CSS px.
 */
import { useSnapshot } from 'valtio';
import type { SelectionBox } from '../../engine/EngineApi';
import { viewerStore } from '../stores/viewer';

/** Box fill opacity (viewer.md §4). */
export const BOX_FILL_OPACITY = 0.2;

/** CSS rectangle and border style of a selection box (pure). */
export function boxStyle(b: SelectionBox): {
  left: number;
  top: number;
  width: number;
  height: number;
  borderStyle: 'solid' | 'dashed';
} {
  return {
    left: Math.min(b.x0, b.x1),
    top: Math.min(b.y0, b.y1),
    width: Math.abs(b.x1 - b.x0),
    height: Math.abs(b.y1 - b.y0),
    borderStyle: b.mode === 'touch' ? 'dashed' : 'solid',
  };
}

export function SelectionBoxOverlay() {
  const { box, walkMode } = useSnapshot(viewerStore);
  if (!box || walkMode) return null;
  const s = boxStyle(box);
  return (
    <div
      data-testid="selection-box"
      data-mode={box.mode}
      aria-hidden="true"
      className="pointer-events-none absolute z-30 border-2 border-brand-600"
      style={{ ...s, backgroundColor: `rgb(0 151 196 / ${BOX_FILL_OPACITY})` }}
    />
  );
}
