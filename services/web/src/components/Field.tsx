import type { InputHTMLAttributes } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'>;

/** A labelled input (the label is its accessible name) reporting its value as typed. */
export function Field({ label, onValue, ...input }: { label: string; onValue: (value: string) => void } & InputProps) {
  return (
    <label className="field">
      <span>{label}</span>
      <input required {...input} onChange={(event) => onValue(event.target.value)} />
    </label>
  );
}
