/**
 * Fan-out of tag changes (viewer.md §7 "Tags", "Tagging": custom trees are shared, so other users viewing
 * the project see a change): the tag routes send a TagsEvent after each stored change; api/realtime.ts
 * forwards it to the project's room. A viewer that missed one reads the trees when it opens next.
 */
import type { TagsEvent } from '../contract/tags';
import { Fanout } from '../events';

/** Subscribers of tag changes. */
export class TagEvents extends Fanout<TagsEvent> {}
