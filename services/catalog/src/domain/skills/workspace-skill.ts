import { errors } from '@rde/platform';

/**
 * Custom workspace skills: who sees what, and what a save or a review does (decision 0064). Pure:
 * the use cases read a skill, ask these rules for the next state, and write it with one guarded
 * single-document update.
 */
export type SkillScope = 'personal' | 'org';
export type VersionStatus = 'live' | 'pending' | 'rejected' | 'superseded' | 'withdrawn';

export type VersionMeta = {
  readonly version: number;
  readonly status: VersionStatus;
  readonly author_user_id: string;
  readonly created_at_ms: number;
  readonly description: string;
  /** sha256 of the package's canonical JSON: a save equal to the latest is no new version. */
  readonly digest: string;
  /** The document of `skill_files` holding this version's files. */
  readonly files_id: string;
  readonly note: string;
};

export type SkillState = {
  readonly scope: SkillScope;
  readonly author_user_id: string;
  readonly versions: readonly VersionMeta[];
  readonly live_version: number | null;
  readonly pending_version: number | null;
};

export interface Actor {
  readonly userId: string;
  readonly owner: boolean;
}

/** A personal skill is its author's alone; a team skill's unapproved versions, its author's and the owner's. */
export function maySeeVersion(skill: SkillState, version: VersionMeta, actor: Actor): boolean {
  if (skill.scope === 'personal') return skill.author_user_id === actor.userId;
  if (version.status === 'live' || version.status === 'superseded') return true;
  return actor.owner || version.author_user_id === actor.userId;
}

export function visibleVersions(skill: SkillState, actor: Actor): VersionMeta[] {
  return skill.versions.filter((version) => maySeeVersion(skill, version, actor));
}

/** Throws the 404 a skill the caller cannot see answers. */
export function assertVisible(skill: SkillState | null, actor: Actor): asserts skill is SkillState {
  if (!skill || visibleVersions(skill, actor).length === 0) throw errors.notFound('Skill not found');
}

/** The version a detail shows: the one asked for, else the live one, else the latest the caller may see. */
export function versionToShow(skill: SkillState, actor: Actor, asked: number): VersionMeta {
  const visible = visibleVersions(skill, actor);
  const wanted = asked > 0 ? asked : (skill.live_version ?? visible.at(-1)!.version);
  const version = visible.find((candidate) => candidate.version === wanted);
  if (!version) throw errors.notFound(`Skill version ${wanted} not found`);
  return version;
}

export interface SaveDecision {
  /** False: the package equals the latest version; nothing is stored. */
  readonly changed: boolean;
  readonly status: VersionStatus;
  readonly versions: VersionMeta[];
  readonly live_version: number | null;
  readonly pending_version: number | null;
}

/**
 * A save of a whole package. Personal: live at once. Team: the owner's save goes live (the owner is
 * the approver); a member's waits as `pending`, replacing that member's own waiting version; while
 * another member's version waits nobody else may save (409).
 */
export function decideSave(
  skill: SkillState,
  actor: Actor,
  next: Omit<VersionMeta, 'version' | 'status' | 'note'>,
): SaveDecision {
  const pending = skill.versions.find((version) => version.version === skill.pending_version);
  if (pending && pending.author_user_id !== actor.userId) {
    throw errors.conflict({
      detail: `Version ${pending.version} by another member is waiting for the owner's approval`,
    });
  }
  const latest = skill.versions.at(-1);
  if (latest && latest.digest === next.digest) {
    return {
      changed: false,
      status: latest.status,
      versions: [...skill.versions],
      live_version: skill.live_version,
      pending_version: skill.pending_version,
    };
  }
  const version = (latest?.version ?? 0) + 1;
  const goesLive = skill.scope === 'personal' || actor.owner;
  const status: VersionStatus = goesLive ? 'live' : 'pending';
  const versions = skill.versions.map((old) =>
    goesLive && old.status === 'live'
      ? { ...old, status: 'superseded' as const }
      : old.status === 'pending'
        ? { ...old, status: 'withdrawn' as const }
        : old,
  );
  versions.push({ ...next, version, status, note: '' });
  return {
    changed: true,
    status,
    versions,
    live_version: goesLive ? version : skill.live_version,
    pending_version: goesLive ? null : version,
  };
}

export type ReviewDecision = 'approve' | 'reject';

/** The owner approves (it goes live, the old live one is superseded) or rejects a pending version. */
export function decideReview(skill: SkillState, actor: Actor, version: number, decision: ReviewDecision, note: string) {
  if (!actor.owner) throw errors.forbidden('Only the workspace owner can approve or reject skill versions');
  const target = visibleVersions(skill, actor).find((candidate) => candidate.version === version);
  if (!target) throw errors.notFound(`Skill version ${version} not found`);
  if (target.status !== 'pending') {
    throw errors.conflict({ detail: `Version ${version} is ${target.status}, not pending` });
  }
  const approve = decision === 'approve';
  const versions = skill.versions.map((old) =>
    old.version === version
      ? { ...old, status: approve ? ('live' as const) : ('rejected' as const), note }
      : approve && old.status === 'live'
        ? { ...old, status: 'superseded' as const }
        : old,
  );
  return {
    status: approve ? ('live' as const) : ('rejected' as const),
    versions,
    live_version: approve ? version : skill.live_version,
    pending_version: null,
  };
}

/** A personal skill is deleted by its author; a team skill by its author or the owner. */
export function assertMayDelete(skill: SkillState, actor: Actor): void {
  if (skill.author_user_id !== actor.userId && !(skill.scope === 'org' && actor.owner)) {
    throw errors.forbidden("Only the skill's author or the workspace owner can delete it");
  }
}
