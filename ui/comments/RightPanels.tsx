/**
 * The right-hand panel (viewer.md §2 "Right-hand panel: model tree and comments, each at full or half
 * height"): the tree alone, the comments alone, or both stacked at half height each.
 */
import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { commentsStore } from '../stores/comments';
import { CommentsPanel } from './CommentsPanel';

export function RightPanels({ tree }: { tree: ReactNode }) {
  const { visible } = useSnapshot(commentsStore);
  if (!visible) return tree;
  if (!tree) return <CommentsPanel half={false} />;
  return (
    <div className="flex min-h-0 w-96 shrink-0 flex-col">
      <div className="flex min-h-0 flex-1 *:w-full!">{tree}</div>
      <CommentsPanel half />
    </div>
  );
}
