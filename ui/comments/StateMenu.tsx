/**
 * The state button of a thread card (viewer.md §3 colours New pink, In progress cyan, Resolved green,
 * Closed orange; §4 "Any state can be chosen from a menu ... only users allowed to change state see an
 * enabled menu, and only when the comment is active"). Picking a state calls change-state at once.
 */
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import type { CommentState } from '../../api/contract';
import { PROGRESS_STATES, STATE_COLOUR, STATE_LABEL } from '../logic/commentsView';
import { changeState } from '../stores/comments';

export function StateMenu({ threadId, state, enabled }: { threadId: string; state: CommentState; enabled: boolean }) {
  const colour = STATE_COLOUR[state];
  const style = { backgroundColor: colour.background, color: colour.text };
  const cls = 'rounded-full px-2 py-0.5 text-[11px] font-semibold whitespace-nowrap';
  if (!enabled)
    return (
      <span className={cls} style={style} data-testid="comment-state" data-state={state}>
        {STATE_LABEL[state]}
      </span>
    );
  return (
    <Menu>
      <MenuButton
        className={`${cls} ring-slate-400 hover:ring-1`}
        style={style}
        data-testid="comment-state"
        data-state={state}
        title="Change state"
      >
        {STATE_LABEL[state]} ▾
      </MenuButton>
      <MenuItems anchor={{ to: 'bottom start', gap: 4 }} className="panel z-40 w-36 p-1 text-sm">
        {PROGRESS_STATES.map((s) => (
          <MenuItem key={s}>
            <button
              type="button"
              className="flex w-full items-center gap-2 rounded px-2 py-1 text-left data-focus:bg-slate-100"
              onClick={() => void changeState(threadId, s)}
            >
              <span className="h-3 w-3 rounded-full" style={{ backgroundColor: STATE_COLOUR[s].background }} />
              {STATE_LABEL[s]}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
