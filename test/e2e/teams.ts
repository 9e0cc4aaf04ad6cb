import type { RunningRde } from './harness';

export interface Team {
  workspaceId: string;
  owner: string;
  ownerEmail: string;
  member: string;
  memberId: string;
}

/** A fresh workspace with its owner's and one member's keys (`rde admin`, as an operator would). */
export async function newTeam(rde: RunningRde, tag: string): Promise<Team> {
  const suffix = `${Date.now()}.${Math.random().toString(36).slice(2, 8)}`;
  const ownerEmail = `${tag}.owner.${suffix}@example.com`;
  const owner = JSON.parse(await rde.admin(['create-workspace', '--email', ownerEmail]));
  const member = JSON.parse(
    await rde.admin([
      'add-member',
      '--workspace',
      owner.workspace_id,
      '--email',
      `${tag}.member.${suffix}@example.com`,
    ]),
  );
  return {
    workspaceId: owner.workspace_id,
    owner: owner.key,
    ownerEmail,
    member: member.key,
    memberId: member.user_id,
  };
}
