import { describe, expect, it } from 'vitest';
import { RECENT_KEY, addRecent, readRecent, removeRecent, type KeyValueStorage } from '../../ui/logic/recent';

function memory(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('Recent list (application.md §2)', () => {
  it('appends most recent last without duplicates under the key Recent', () => {
    const s = memory();
    addRecent(s, 'A');
    addRecent(s, 'B');
    expect(addRecent(s, 'A')).toEqual(['B', 'A']);
    expect(JSON.parse(s.data.get(RECENT_KEY)!)).toEqual(['B', 'A']);
    expect(RECENT_KEY).toBe('Recent');
  });
  it('survives garbage and removes entries', () => {
    const s = memory();
    s.setItem(RECENT_KEY, '{not json');
    expect(readRecent(s)).toEqual([]);
    s.setItem(RECENT_KEY, JSON.stringify(['X', 3, 'Y']));
    expect(readRecent(s)).toEqual(['X', 'Y']);
    expect(removeRecent(s, 'X')).toEqual(['Y']);
  });
});
