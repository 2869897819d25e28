/**
 * Fan-out of comment changes (viewer.md §2 "A thread scrolls into view when activated or updated"): the
 * routes send a CommentEvent after each stored change; api/realtime.ts forwards it to the project's room.
 */
import type { CommentEvent } from '../contract/comments';
import { Fanout } from '../events';

/** Subscribers of comment changes (a panel that missed one gets the change on Refresh). */
export class CommentEvents extends Fanout<CommentEvent> {}
