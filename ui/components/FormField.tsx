/** A labelled form input with its validation message (application.md §5 texts are shown below it). */
import { useId, type InputHTMLAttributes } from 'react';

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

export function FormField({ label, value, onChange, error, ...rest }: FormFieldProps) {
  const id = useId();
  const errId = `${id}-error`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        className={`field-input ${error ? 'border-rose-400 focus:border-rose-500 focus:ring-rose-100' : ''}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errId : undefined}
        {...rest}
      />
      {error && (
        <p id={errId} role="alert" className="text-xs text-rose-600">
          {error}
        </p>
      )}
    </div>
  );
}

/** The centred card the authentication views share. */
export function AuthCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-1 items-start justify-center overflow-auto bg-gradient-to-b from-slate-100 to-slate-200 px-4 pt-20">
      <div className="panel w-full max-w-sm p-8">
        <h1 className="mb-6 text-xl font-semibold text-ink">{title}</h1>
        {children}
      </div>
    </div>
  );
}
