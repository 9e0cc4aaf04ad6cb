import type { FormEvent, ReactNode } from 'react';

/** A form sent by its one button (or Enter), by script: the page stays, the button waits while busy. */
export function Form({
  submit,
  busy,
  onSubmit,
  children,
}: {
  submit: string;
  busy: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const send = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={send}>
      {children}
      <button type="submit" disabled={busy}>
        {submit}
      </button>
    </form>
  );
}
