import { useEffect, useId, useRef } from 'react';
import type { Member } from './Members';

/**
 * The step before a removal: what it ends, said in full, with the confirming button focused (so a
 * keyboard user is where the choice is) and a way back.
 */
export function RemoveConfirmation({
  member,
  busy,
  onConfirm,
  onCancel,
}: {
  member: Member;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const said = useId();
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), [member.user_id]);
  return (
    <div role="group" aria-labelledby={said} className="warning">
      <p id={said}>
        Remove {member.email} from this workspace? Their API keys and browser sessions for it stop working at once and
        invites to or from them are withdrawn; their charges stay in the ledger.
      </p>
      <button type="button" ref={confirm} disabled={busy} onClick={onConfirm}>
        Yes, remove {member.email}
      </button>{' '}
      <button type="button" className="secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
