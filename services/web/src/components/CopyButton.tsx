import { useState } from 'react';

/** Copies a value to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status">{copied ? ' Copied.' : ''}</span>
    </>
  );
}
