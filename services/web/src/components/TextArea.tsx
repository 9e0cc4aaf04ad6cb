import type { TextareaHTMLAttributes } from 'react';

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange'>;

/** A labelled multi-line input (the label is its accessible name) reporting its value as typed. */
export function TextArea({
  label,
  onValue,
  ...area
}: { label: string; onValue: (value: string) => void } & TextAreaProps) {
  return (
    <label className="field">
      <span>{label}</span>
      <textarea required rows={5} {...area} onChange={(event) => onValue(event.target.value)} />
    </label>
  );
}
