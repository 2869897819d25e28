/**
 * The viewer's context menu (viewer.md §2 "Context menu"), opened at the engine's 'context-menu' event
 * position (a right click that moved ≤ 3 px, or a 1000 ms touch hold). Entries and their rules come from
 * the registered commands (ui/viewer/commands.ts): Hide objects (only with a selection), Undo / Redo with
 * the action name (disabled when none), Deselect / Delete N annotation(s), Deselect N comment marker(s)
 * (only when there are some), Fit to window, the Projection submenu (View along X, Y, Z, -X, -Y, -Z) and
 * the Clip to section submenu ('Section {name}' per visible section, sorted by name; only when sections
 * exist). Closes on Escape, an outside click, or after an action.
 *
 * A small WAI-ARIA menu of its own rather than headlessui's Menu: that one opens only from its button and
 * has no nested submenus, while this menu opens at a point and needs two submenus. Keyboard: Up / Down /
 * Home / End move, Right or Enter opens a submenu, Left closes it, Enter / Space run, Escape closes.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { closeContextMenu, viewerStore } from '../stores/viewer';
import { clipSectionEntries, featuresStore } from '../stores/viewerFeatures';
import { PROJECTION_AXES, getCommand, type CommandState } from './commands';
import { runCommand, snapshotCommandState } from './runCommand';

/** One menu entry: a command (with an optional argument) or a submenu. */
export type MenuEntry =
  | { kind: 'command'; id: string; label: string; enabled: boolean; arg?: string }
  | { kind: 'submenu'; label: string; entries: MenuEntry[] }
  | { kind: 'separator' };

const cmd = (s: CommandState, id: string): MenuEntry[] => {
  const c = getCommand(id);
  return c.visible(s) ? [{ kind: 'command', id, label: c.label(s), enabled: c.enabled(s) }] : [];
};

/** The context menu's entries for a state, in the spec's order (pure; unit tested). */
export function contextMenuEntries(s: CommandState): MenuEntry[] {
  const groups: MenuEntry[][] = [
    [...cmd(s, 'hide-objects'), ...cmd(s, 'undo'), ...cmd(s, 'redo')],
    [...cmd(s, 'deselect-annotations'), ...cmd(s, 'delete-annotations'), ...cmd(s, 'deselect-markers')],
    [
      ...cmd(s, 'fit-to-window'),
      { kind: 'submenu', label: 'Projection', entries: PROJECTION_AXES.flatMap((a) => cmd(s, `view-along-${a}`)) },
    ],
  ];
  const clip = getCommand('clip-to-section');
  if (clip.visible(s)) {
    const enabled = clip.enabled(s);
    const entries: MenuEntry[] = clipSectionEntries(s.features.sections).map((name) => ({
      kind: 'command',
      id: clip.id,
      label: `Section ${name}`,
      enabled,
      arg: name,
    }));
    groups.push([{ kind: 'submenu', label: clip.name, entries }]);
  }
  const out: MenuEntry[] = [];
  for (const g of groups.filter((g) => g.length > 0)) {
    if (out.length) out.push({ kind: 'separator' });
    out.push(...g);
  }
  return out;
}

const ITEM = 'flex w-full items-center justify-between gap-6 rounded px-3 py-1.5 text-left text-sm outline-none';

function focusables(menu: HTMLElement | null): HTMLElement[] {
  if (!menu) return [];
  return [
    ...menu.querySelectorAll<HTMLElement>(':scope > [role="none"] > [role="menuitem"]:not([aria-disabled="true"])'),
  ];
}

function moveFocus(menu: HTMLElement | null, key: string): boolean {
  const items = focusables(menu);
  if (!items.length) return false;
  const i = items.indexOf(document.activeElement as HTMLElement);
  const next =
    key === 'ArrowDown'
      ? (i + 1) % items.length
      : key === 'ArrowUp'
        ? (i - 1 + items.length) % items.length
        : key === 'Home'
          ? 0
          : key === 'End'
            ? items.length - 1
            : -1;
  if (next < 0) return false;
  items[next].focus();
  return true;
}

/** Stable React keys for the entries: commands by id and argument, submenus by label, separators by the entry before. */
function entryKeys(entries: MenuEntry[]): string[] {
  const keys: string[] = [];
  let prev = 'start';
  for (const e of entries) {
    const key =
      e.kind === 'command' ? `${e.id}:${e.arg ?? ''}` : e.kind === 'submenu' ? `menu:${e.label}` : `sep:${prev}`;
    keys.push(key);
    prev = key;
  }
  return keys;
}

function MenuList({
  entries,
  label,
  onRun,
  onClose,
  nested,
}: {
  entries: MenuEntry[];
  label: string;
  onRun: (e: MenuEntry & { kind: 'command' }) => void;
  onClose: () => void;
  nested?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    focusables(ref.current)[0]?.focus();
  }, []);

  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (e.target instanceof HTMLElement && e.target.closest('[role="menu"]') !== ref.current) return; // a submenu handles its own keys
    if (moveFocus(ref.current, e.key)) {
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === 'Escape' || (nested && e.key === 'ArrowLeft')) {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  };

  const keys = entryKeys(entries);
  return (
    <div
      ref={ref}
      role="menu"
      aria-label={label}
      onKeyDown={onKeyDown}
      className={`panel min-w-52 p-1 ${nested ? 'absolute top-0 left-full ml-1' : ''}`}
    >
      {entries.map((e, i) => {
        if (e.kind === 'separator') return <hr key={keys[i]} className="my-1 border-t border-slate-100" />;
        if (e.kind === 'submenu') {
          const isOpen = open === e.label;
          return (
            <div
              key={keys[i]}
              role="none"
              className="relative"
              onMouseEnter={() => setOpen(e.label)}
              onMouseLeave={() => setOpen(null)}
            >
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                aria-haspopup="menu"
                aria-expanded={isOpen}
                className={`${ITEM} text-slate-700 hover:bg-slate-100 focus:bg-slate-100`}
                onClick={() => setOpen(e.label)}
                onKeyDown={(k) => {
                  if (k.key === 'ArrowRight' || k.key === 'Enter' || k.key === ' ') {
                    k.preventDefault();
                    setOpen(e.label);
                  }
                }}
              >
                {e.label}
                <span aria-hidden="true" className="text-slate-400">
                  ▸
                </span>
              </button>
              {isOpen && (
                <MenuList
                  entries={e.entries}
                  label={e.label}
                  onRun={onRun}
                  nested
                  onClose={() => {
                    setOpen(null);
                    (
                      ref.current?.querySelector(`[aria-haspopup][aria-expanded="true"]`) as HTMLElement | null
                    )?.focus();
                  }}
                />
              )}
            </div>
          );
        }
        return (
          <div key={keys[i]} role="none">
            <button
              type="button"
              role="menuitem"
              aria-disabled={!e.enabled}
              tabIndex={-1}
              className={`${ITEM} ${e.enabled ? 'text-slate-700 hover:bg-slate-100 focus:bg-slate-100' : 'cursor-default text-slate-400'}`}
              onMouseEnter={(m) => e.enabled && m.currentTarget.focus()}
              onClick={() => e.enabled && onRun(e)}
            >
              {e.label}
            </button>
          </div>
        );
      })}
    </div>
  );
}

/** The context menu overlay; place it inside the canvas container (positions are canvas CSS px). */
export function ContextMenu() {
  const { contextMenu } = useSnapshot(viewerStore);
  const viewer = useSnapshot(viewerStore);
  const features = useSnapshot(featuresStore);
  const rootRef = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  const close = closeContextMenu;

  // Keep the menu inside its container (flip left / up near the right and bottom edges); a layout effect,
  // so the corrected position is drawn in the first paint. The menu stays focusable throughout.
  useLayoutEffect(() => {
    const el = rootRef.current;
    if (!contextMenu || !el) return setPos(null);
    const box = el.parentElement?.getBoundingClientRect();
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const left = box && contextMenu.x + w > box.width ? Math.max(0, contextMenu.x - w) : contextMenu.x;
    const top = box && contextMenu.y + h > box.height ? Math.max(0, contextMenu.y - h) : contextMenu.y;
    setPos({ left, top });
  }, [contextMenu]);

  useEffect(() => {
    if (!contextMenu) return;
    const outside = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) close();
    };
    const onEscapeKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    // The browser's own menu stays closed over this one.
    const noBrowserMenu = (e: Event) => e.preventDefault();
    const root = rootRef.current;
    root?.addEventListener('contextmenu', noBrowserMenu);
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('keydown', onEscapeKey);
    window.addEventListener('blur', close);
    return () => {
      root?.removeEventListener('contextmenu', noBrowserMenu);
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('keydown', onEscapeKey);
      window.removeEventListener('blur', close);
    };
  }, [contextMenu]);

  if (!contextMenu) return null;
  const entries = contextMenuEntries(
    snapshotCommandState(viewer as CommandState['viewer'], features as CommandState['features']),
  );
  return (
    <div
      ref={rootRef}
      data-testid="context-menu"
      className="absolute z-40"
      style={{ left: pos?.left ?? contextMenu.x, top: pos?.top ?? contextMenu.y }}
    >
      <MenuList
        key={`${contextMenu.x},${contextMenu.y}`}
        entries={entries}
        label="Context menu"
        onClose={close}
        onRun={(e) => {
          close();
          void runCommand(e.id, e.arg);
        }}
      />
    </div>
  );
}
