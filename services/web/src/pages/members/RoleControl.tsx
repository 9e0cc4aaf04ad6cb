import { useState } from 'react';
import type { Member } from './Members';

const ROLES: Member['role'][] = ['owner', 'member'];

/** A member's role to choose, saved by its own button (choosing alone changes nothing). */
export function RoleControl({
  member,
  busy,
  onSave,
}: {
  member: Member;
  busy: boolean;
  onSave: (role: Member['role']) => void;
}) {
  const [role, setRole] = useState(member.role);
  return (
    <span>
      <select
        aria-label={`Role of ${member.email}`}
        value={role}
        onChange={(event) => setRole(event.target.value as Member['role'])}
      >
        {ROLES.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>{' '}
      <button
        type="button"
        disabled={busy || role === member.role}
        onClick={() => onSave(role)}
        aria-label={`Save the role of ${member.email}`}
      >
        Save
      </button>
    </span>
  );
}
