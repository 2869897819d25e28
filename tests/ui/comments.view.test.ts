import { describe, expect, it } from 'vitest';
import {
  SORT_LABEL,
  SortOrder,
  isFilterActive,
  labelsInUse,
  lastUpdated,
  NO_FILTERS,
  passesFilters,
  sortThreads,
  toggleValue,
  visibleThreads,
  type ViewComment,
} from '../../ui/logic/commentsView';

const at = (iso: string) => Date.parse(iso);

function thread(id: string, state: string, created: string, extra: Partial<ViewComment> = {}): ViewComment {
  return { id, state, projectRevisionNumber: 1, labels: [], timeStamp: created, replies: [], ...extra };
}

// Three threads whose creation order differs from their last-update order (b has a late reply).
const a = thread('a', 'Closed', '2026-01-01T10:00:00Z');
const b = thread('b', 'New', '2026-01-01T09:00:00Z', {
  replies: [thread('b1', 'New', '2026-01-03T08:00:00Z')],
});
const c = thread('c', 'Resolved', '2026-01-02T10:00:00Z', { lastModificationTime: '2026-01-02T11:00:00Z' });

describe('comment threads: last update and sorting (viewer.md §4 "Sorting")', () => {
  it('takes the latest time across the thread, its modification and its replies', () => {
    expect(lastUpdated(a)).toBe(at('2026-01-01T10:00:00Z'));
    expect(lastUpdated(b)).toBe(at('2026-01-03T08:00:00Z'));
    expect(lastUpdated(c)).toBe(at('2026-01-02T11:00:00Z'));
  });
  it('orders by last update both ways and by state both ways', () => {
    const ids = (o: SortOrder) => sortThreads([a, b, c], o).map((t) => t.id);
    expect(ids(SortOrder.OLDEST)).toEqual(['b', 'c', 'a']);
    expect(ids(SortOrder.LATEST)).toEqual(['a', 'c', 'b']);
    expect(ids(SortOrder.NEW_FIRST)).toEqual(['b', 'c', 'a']);
    expect(ids(SortOrder.CLOSED_FIRST)).toEqual(['a', 'c', 'b']);
  });
  it('breaks state ties by the latest update and leaves the input alone', () => {
    const n1 = thread('n1', 'New', '2026-01-01T00:00:00Z');
    const n2 = thread('n2', 'New', '2026-01-05T00:00:00Z');
    const input = [n1, n2];
    expect(sortThreads(input, SortOrder.NEW_FIRST).map((t) => t.id)).toEqual(['n2', 'n1']);
    expect(input.map((t) => t.id)).toEqual(['n1', 'n2']);
  });
  it('names the four sorts as the spec does, enumeration 0 to 3', () => {
    expect(Object.values(SortOrder)).toEqual([0, 1, 2, 3]);
    expect([0, 1, 2, 3].map((o) => SORT_LABEL[o as SortOrder])).toEqual([
      'Latest - Oldest',
      'Oldest - Latest',
      'New - Closed',
      'Closed - New',
    ]);
  });
});

describe('comment filters (same kind OR, different kinds AND)', () => {
  const t1 = thread('t1', 'New', '2026-01-01T00:00:00Z', { labels: ['hull', 'weld'], projectRevisionNumber: 1 });
  const t2 = thread('t2', 'Closed', '2026-01-01T00:00:00Z', { labels: ['deck'], projectRevisionNumber: 2 });
  const t3 = thread('t3', 'New', '2026-01-01T00:00:00Z', { labels: ['deck'], projectRevisionNumber: 2 });
  const gone = thread('t4', 'Deleted', '2026-01-01T00:00:00Z', { labels: ['ghost'] });
  const all = [t1, t2, t3, gone];
  const pass = (f: Partial<typeof NO_FILTERS>) =>
    all.filter((t) => passesFilters(t, { ...NO_FILTERS, ...f })).map((t) => t.id);

  it('hides deleted threads even without filters', () => {
    expect(pass({})).toEqual(['t1', 't2', 't3']);
    expect(isFilterActive(NO_FILTERS)).toBe(false);
  });
  it('combines values of one kind with OR', () => {
    expect(pass({ states: ['New', 'Closed'] })).toEqual(['t1', 't2', 't3']);
    expect(pass({ labels: ['weld', 'deck'] })).toEqual(['t1', 't2', 't3']);
    expect(pass({ revisions: [1] })).toEqual(['t1']);
  });
  it('combines kinds with AND', () => {
    expect(pass({ states: ['New'], labels: ['deck'] })).toEqual(['t3']);
    expect(pass({ states: ['Closed'], revisions: [1] })).toEqual([]);
    expect(isFilterActive({ ...NO_FILTERS, revisions: [2] })).toBe(true);
  });
  it('lists labels in use without deleted ones, and toggles filter values', () => {
    expect(labelsInUse(all)).toEqual(['deck', 'hull', 'weld']);
    expect(toggleValue(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleValue(['a', 'b'], 'a')).toEqual(['b']);
  });
  it('drops deleted replies from the visible threads', () => {
    const withReplies = thread('r', 'New', '2026-01-01T00:00:00Z', {
      replies: [thread('r1', 'New', '2026-01-01T01:00:00Z'), thread('r2', 'Deleted', '2026-01-01T02:00:00Z')],
    });
    const [shown] = visibleThreads([withReplies], NO_FILTERS, SortOrder.OLDEST);
    expect(shown.replies?.map((r) => r.id)).toEqual(['r1']);
  });
});
