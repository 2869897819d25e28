import type { ReactNode } from 'react';

/**
 * A 20 × 20 line icon of the toolbars and the comments panel, drawn in the current text colour with 1.8-unit
 * strokes; hidden from assistive technology (the button around it carries the label).
 * @param children the icon's paths, circles and lines in the 20 × 20 box.
 * @param className its size, `h-4 w-4` (16 px) unless given.
 */
export function StrokeIcon({ children, className = 'h-4 w-4' }: { children: ReactNode; className?: string }) {
  return (
    <svg
      viewBox="0 0 20 20"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}
