/** The Scheduling tab's rules (application.md §2 "Scheduling tab", §5, §9 "New job id"). */
import { describe, expect, it } from 'vitest';
import type { ProjectUpdateJob } from '../../api/contract';
import { addTime, canAddTime, newJobId, normalizeTime, scheduleChanged } from '../../ui/logic/schedule';

const job = (id: number, over: Partial<ProjectUpdateJob> = {}): ProjectUpdateJob => ({
  id,
  sources: ['/srv/a.3docx'],
  timesOfDay: ['08:00'],
  keelsonId: 'admin@yard.com',
  overwriteIfExists: false,
  ...over,
});

describe('schedule rules', () => {
  it('gives a new job the number of jobs plus one, skipping an id still in use', () => {
    expect(newJobId([])).toBe(1);
    expect(newJobId([job(1), job(2)])).toBe(3);
    expect(newJobId([job(2), job(3)])).toBe(4);
    expect(newJobId([job(1), job(3)])).toBe(4);
    expect(newJobId([job(5)])).toBe(2);
  });

  it('takes 24-hour HH:MM times and refuses a time already in the job', () => {
    expect(normalizeTime('7:05')).toBe('07:05');
    expect(normalizeTime('23:59')).toBe('23:59');
    expect(normalizeTime('24:00')).toBeNull();
    expect(normalizeTime('12:60')).toBeNull();
    expect(normalizeTime('noon')).toBeNull();
    expect(canAddTime(['08:00'], '08:00')).toBe(false);
    expect(canAddTime(['08:00'], '8:00')).toBe(false);
    expect(canAddTime(['08:00'], '09:30')).toBe(true);
    expect(canAddTime([], '')).toBe(false);
    expect(addTime(['12:00', '08:00'], '09:30')).toEqual(['08:00', '09:30', '12:00']);
  });

  it('sees a change only when what the user edits differs', () => {
    const saved = [job(1, { timesOfDay: ['08:00', '12:00'] })];
    expect(scheduleChanged(saved, [job(1, { timesOfDay: ['12:00', '08:00'], keelsonId: '' })])).toBe(false);
    expect(scheduleChanged(saved, [job(1, { timesOfDay: ['08:00'] })])).toBe(true);
    expect(scheduleChanged(saved, [job(1, { timesOfDay: ['08:00', '12:00'], overwriteIfExists: true })])).toBe(true);
    expect(scheduleChanged(saved, [])).toBe(true);
    expect(scheduleChanged([], [])).toBe(false);
  });
});
