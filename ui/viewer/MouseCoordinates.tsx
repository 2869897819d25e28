/**
 * Mouse coordinates panel (viewer.md §2, §7 Reference system): x, y, z of the point under the cursor in
 * metres with 3 decimals and the frame, longitudinal and vertical numbers there (ui/logic/coordinates.ts,
 * computed locally from the model's reference planes), and the frame scale along the bottom of the view
 * (labels every 10 frames, medium ticks every 5; engine/reference/frameScale.ts).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { frameScaleTicks } from '../../engine/reference/frameScale';
import { frameAxis } from '../../engine/reference/frameSystem';
import { cursorReadout, screenFrameTicks } from '../logic/coordinates';
import { toolsStore } from '../stores/tools';

export function MouseCoordinates() {
  const { cursor } = useSnapshot(toolsStore);
  const frames = toolsStore.frames;
  const r = cursorReadout(cursor as [number, number, number] | null, frames);
  const cell = (label: string, value: string | undefined, testId: string) => (
    <span className="flex items-baseline gap-1">
      <span className="text-slate-400">{label}</span>
      <span data-testid={testId} className="min-w-14 text-right font-mono text-ink">
        {value ?? '–'}
      </span>
    </span>
  );
  return (
    <section
      data-testid="mouse-coordinates"
      aria-label="Mouse coordinates"
      className="panel absolute bottom-10 left-1/2 z-10 flex -translate-x-1/2 gap-3 px-3 py-1 text-xs"
    >
      {cell('x', r?.x, 'coord-x')}
      {cell('y', r?.y, 'coord-y')}
      {cell('z', r?.z, 'coord-z')}
      {cell('Fr', r?.frame, 'coord-frame')}
      {cell('L', r?.longitudinal, 'coord-long')}
      {cell('V', r?.vertical, 'coord-vert')}
    </section>
  );
}

/** Frame scale along the bottom of the view (hidden in walk mode: the projection is perspective). */
export function FrameScale({ walkMode }: { walkMode: boolean }) {
  const { view, bounds } = useSnapshot(toolsStore);
  const frames = toolsStore.frames; // the real (ref'd) tables, not a snapshot
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  useEffect(() => {
    const el = ref.current?.parentElement;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const ticks = useMemo(
    () => (frames && bounds ? frameScaleTicks(frameAxis(frames, 'x'), bounds as never) : []),
    [frames, bounds],
  );
  const marks =
    view && bounds && !walkMode ? screenFrameTicks(ticks, view as never, size.w, size.h, bounds as never) : [];
  return (
    <div ref={ref} data-testid="frame-scale" className="pointer-events-none absolute inset-x-0 bottom-0 z-[5] h-7">
      {marks.length > 0 && (
        <svg width={size.w} height={28} className="block" aria-hidden="true">
          <line x1={0} x2={size.w} y1={27.5} y2={27.5} stroke="#64748b" strokeWidth={1} />
          {marks.map((m) => {
            const len = m.kind === 'major' ? 10 : m.kind === 'medium' ? 7 : 4;
            return (
              <g key={`${m.x}:${m.label ?? ''}`}>
                <line x1={m.x} x2={m.x} y1={28} y2={28 - len} stroke="#475569" strokeWidth={1} />
                {m.label && (
                  <text x={m.x} y={13} fontSize={10} textAnchor="middle" fill="#334155">
                    {m.label}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      )}
    </div>
  );
}
