import { describe, expect, it } from 'vitest';
import {
  addLabel,
  assigneeOption,
  assigneesLine,
  authorName,
  formatCommentTime,
  labelColour,
  labelHue,
  markerText,
  matchLabels,
  noLabelsText,
  relativeTime,
  repliesText,
  revisionLabel,
} from '../../ui/logic/commentsText';

describe('comment card texts (viewer.md §2)', () => {
  it("formats times as 'ddd DD MMMM YYYY H:mm' in local time", () => {
    // A local-time input keeps the test independent of the machine's zone.
    expect(formatCommentTime('2026-03-04T05:06:00')).toBe('Wed 04 March 2026 5:06');
    expect(formatCommentTime(new Date(2026, 10, 25, 14, 30).getTime())).toBe('Wed 25 November 2026 14:30');
    expect(formatCommentTime('not a date')).toBe('');
  });
  it('gives relative time in minutes, hours, days, weeks and years', () => {
    const now = Date.parse('2026-06-15T12:00:00Z');
    const ago = (ms: number) => relativeTime(now - ms, now);
    const min = 60_000;
    expect(ago(20_000)).toBe('just now');
    expect(ago(min)).toBe('1 minute ago');
    expect(ago(59 * min)).toBe('59 minutes ago');
    expect(ago(60 * min)).toBe('1 hour ago');
    expect(ago(25 * 60 * min)).toBe('1 day ago');
    expect(ago(13 * 24 * 60 * min)).toBe('1 week ago');
    expect(ago(20 * 7 * 24 * 60 * min)).toBe('20 weeks ago');
    expect(ago(800 * 24 * 60 * min)).toBe('2 years ago');
    expect(relativeTime(now + 3 * 60 * min, now)).toBe('in 3 hours');
  });
  it("labels the revision 'rev. N' and the model's highest one '(latest)'", () => {
    expect(revisionLabel(3, [1, 3, 2])).toBe('rev. 3 (latest)');
    expect(revisionLabel(2, [1, 3, 2])).toBe('rev. 2');
  });
  it('names users by description, else user name; assignees as description (userName)', () => {
    const ann = { description: 'Ann Reviewer', userName: 'ann@yard.example' };
    const bob = { description: '', userName: 'bob@yard.example' };
    expect(authorName(ann)).toBe('Ann Reviewer');
    expect(authorName(bob)).toBe('bob@yard.example');
    expect(assigneeOption(ann)).toBe('Ann Reviewer (ann@yard.example)');
    expect(assigneesLine([ann, bob])).toBe('To: Ann Reviewer, bob@yard.example');
    expect(assigneesLine([])).toBe('');
  });
  it('shows marker locations to 3 decimals and the replies count', () => {
    expect(markerText({ x: 12.34567, y: -0.1, z: 3 })).toBe('12.346, -0.100, 3.000');
    expect(repliesText(0)).toBe('');
    expect(repliesText(4)).toBe('+4 replies');
  });
});

describe('labels (viewer.md §5)', () => {
  it('colours chips from the string hash at saturation 100 % and lightness 87 %', () => {
    // Java's "hello".hashCode() is 99162322, which is 322 modulo 360.
    expect(labelHue('hello')).toBe(322);
    expect(labelColour('hello')).toBe('hsl(322, 100%, 87%)');
    // A negative hash still gives a hue in 0..359, the same every time.
    for (const s of ['a long label that overflows 32 bits', 'Hull', 'deck 4', '']) {
      expect(labelHue(s)).toBeGreaterThanOrEqual(0);
      expect(labelHue(s)).toBeLessThan(360);
      expect(labelHue(s)).toBe(labelHue(s));
    }
    expect(labelHue('Hull')).not.toBe(labelHue('hull'));
  });
  it('matches case-insensitive substrings and words the no-match text as the spec', () => {
    const known = ['Hull', 'Weld seam', 'deck'];
    expect(matchLabels(known, 'EL')).toEqual(['Weld seam']);
    expect(matchLabels(known, 'u')).toEqual(['Hull']);
    expect(matchLabels(known, '')).toEqual(known);
    expect(matchLabels(known, 'xyz')).toEqual([]);
    expect(noLabelsText('xyz')).toBe('No labels found matching "xyz". Press Tab or Enter to create new.');
  });
  it('creates a label from typed text, reusing a known spelling and refusing duplicates', () => {
    expect(addLabel([], ['Hull'], '  new one ')).toEqual(['new one']);
    expect(addLabel([], ['Hull'], 'hull')).toEqual(['Hull']);
    expect(addLabel(['Hull'], ['Hull'], 'HULL')).toEqual(['Hull']);
    expect(addLabel(['Hull'], [], '   ')).toEqual(['Hull']);
    expect(addLabel([], [], 'x'.repeat(101))).toEqual([]);
  });
});
