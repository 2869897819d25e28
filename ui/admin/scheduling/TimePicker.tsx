/**
 * The time picker of a project update job (application.md §2 "Scheduling tab", §5): the job's times as
 * removable 24-hour HH:MM chips; 'Add time(s)' opens hour and minute selectors with 'Add time' (disabled
 * for a time already in the job) and 'Cancel'. The selectors stay open so several times can be added.
 */
import { useState } from 'react';
import { addTime, canAddTime } from '../../logic/schedule';

const HOURS = Array.from({ length: 24 }, (_, i) => String(i).padStart(2, '0'));
const MINUTES = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

export function TimePicker({ times, onChange }: { times: readonly string[]; onChange: (times: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const [hour, setHour] = useState('00');
  const [minute, setMinute] = useState('00');
  const time = `${hour}:${minute}`;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        {times.map((t) => (
          <span
            key={t}
            className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-sm text-brand-700"
          >
            {t}
            <button
              type="button"
              aria-label={`Remove time ${t}`}
              className="text-brand-700 hover:text-rose-600"
              onClick={() => onChange(times.filter((x) => x !== t))}
            >
              ×
            </button>
          </span>
        ))}
        {!open && (
          <button type="button" className="btn-ghost" onClick={() => setOpen(true)}>
            Add time(s)
          </button>
        )}
      </div>
      {open && (
        <div className="flex items-center gap-2">
          <select aria-label="Hour" className="field-input w-20" value={hour} onChange={(e) => setHour(e.target.value)}>
            {HOURS.map((h) => (
              <option key={h}>{h}</option>
            ))}
          </select>
          <span>:</span>
          <select
            aria-label="Minute"
            className="field-input w-20"
            value={minute}
            onChange={(e) => setMinute(e.target.value)}
          >
            {MINUTES.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
          <button
            type="button"
            className="btn-secondary"
            disabled={!canAddTime(times, time)}
            onClick={() => onChange(addTime(times, time))}
          >
            Add time
          </button>
          <button type="button" className="btn-ghost" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}
