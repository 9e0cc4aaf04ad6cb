import { randomBytes } from 'node:crypto';
import { errors, type Caller, type Clock } from '@rde/platform';
import { sha256Hex } from '../../domain/skills/archive';
import {
  InvalidSkillPackage,
  validateSkillPackage,
  type SkillFiles,
  type SkillManifest,
} from '../../domain/skills/package';
import type { Actor } from '../../domain/skills/workspace-skill';
import type { WorkspaceSkillDocument, WorkspaceSkillsRepository } from '../../store/workspace-skills';

/** What every custom-skill use case needs. */
export interface WorkspaceSkillDependencies {
  readonly skills: WorkspaceSkillsRepository;
  readonly clock: Clock;
}

/** Skills per workspace (the spec's Limits). */
export const SKILLS_PER_WORKSPACE = 200;

/** How often a use case reads again after another write won its compare-and-set. */
const GUARDED_ATTEMPTS = 8;

/** The caller as the skill rules see it; 403 for a key that belongs to no signed-in user. */
export function actorOf(caller: Caller): Actor {
  if (!caller.userId || caller.anonymous) {
    throw errors.forbidden('Custom skills need a key that belongs to a signed-in user');
  }
  return { userId: caller.userId, owner: caller.role === 'owner' };
}

/** The package's manifest, or 400 with the reason in `detail`. */
export function validPackage(files: SkillFiles): SkillManifest {
  try {
    return validateSkillPackage(files);
  } catch (error) {
    if (error instanceof InvalidSkillPackage)
      throw errors.badRequest({ detail: `Invalid skill package: ${error.message}` });
    throw error;
  }
}

/** A content hash independent of the order the paths were sent in. */
export function packageDigest(files: SkillFiles): string {
  return sha256Hex(
    JSON.stringify(
      Object.keys(files)
        .sort()
        .map((path) => [path, files[path]]),
    ),
  );
}

export function newSkillId(): string {
  return `skl_${randomBytes(12).toString('base64url')}`;
}

export function newFilesId(): string {
  return `skf_${randomBytes(12).toString('base64url')}`;
}

/**
 * Reads the skill and applies `attempt` until its guarded write wins: a write that lost to another
 * (an approval racing a save) reads the skill again, so the rules see what the winner left.
 */
export async function withGuardedWrite<T>(
  deps: WorkspaceSkillDependencies,
  caller: Caller,
  skillId: string,
  attempt: (skill: WorkspaceSkillDocument | null) => Promise<{ written: boolean; answer: T }>,
): Promise<T> {
  for (let tries = 0; tries < GUARDED_ATTEMPTS; tries++) {
    const { written, answer } = await attempt(await deps.skills.find(caller.workspaceId, skillId));
    if (written) return answer;
  }
  throw errors.conflict({ detail: 'The skill is being changed by another request; try again' });
}
