import type { SelectHTMLAttributes } from 'react';
import { US_STATE_NAMES } from '../../core/schemas/us-states.ts';

interface StateSelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  id: string;
  name: string;
  label: string;
  hint?: string;
  error?: string;
}

/** A labelled choice of the 50 states, empty first ("Not said"), with its hint and error. */
export function StateSelect({ id, label, hint, error, ...select }: StateSelectProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...select}
      >
        <option value="">Not said</option>
        {[...US_STATE_NAMES].sort().map((state) => (
          <option key={state} value={state}>
            {state}
          </option>
        ))}
      </select>
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
