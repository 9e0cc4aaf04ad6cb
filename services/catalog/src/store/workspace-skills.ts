import { DuplicateKeyError, type Collection, type DocumentStore } from '@rde/platform';
import type { SkillFiles } from '../domain/skills/package';
import type { SkillScope, SkillState, VersionMeta } from '../domain/skills/workspace-skill';

/** One custom skill with its versions' metadata (collection `workspace_skills`). */
export type WorkspaceSkillDocument = SkillState & {
  _id: string;
  workspace_id: string;
  name: string;
  scope: SkillScope;
  versions: VersionMeta[];
  /** Bumped by every write: the guard of each compare-and-set. */
  revision: number;
  created_at_ms: number;
  updated_at_ms: number;
};

/** One version's files (collection `skill_files`), as a list: file names hold dots. */
type SkillFilesDocument = { _id: string; skill_id: string; files: { path: string; text: string }[] };
/** How many skills a workspace has (collection `skill_counts`): its limit is one guarded `$inc`. */
type SkillCountDocument = { _id: string; count: number };

export type SkillChange = Pick<
  WorkspaceSkillDocument,
  'versions' | 'live_version' | 'pending_version' | 'updated_at_ms'
>;

/**
 * Custom skills. Every transition is one single-document update guarded by the revision read
 * before it, so of two racing writers exactly one wins and the other reads again.
 */
export class WorkspaceSkillsRepository {
  private constructor(
    private readonly skills: Collection<WorkspaceSkillDocument>,
    private readonly files: Collection<SkillFilesDocument>,
    private readonly counts: Collection<SkillCountDocument>,
  ) {}

  static async open(store: DocumentStore): Promise<WorkspaceSkillsRepository> {
    const skills = store.collection<WorkspaceSkillDocument>('workspace_skills');
    await skills.createIndex({ keys: { workspace_id: 1, name: 1 }, unique: true, name: 'workspace_name_unique' });
    return new WorkspaceSkillsRepository(
      skills,
      store.collection<SkillFilesDocument>('skill_files'),
      store.collection<SkillCountDocument>('skill_counts'),
    );
  }

  /** Takes one of the workspace's `limit` places; false when all are taken. */
  async takePlace(workspaceId: string, limit: number): Promise<boolean> {
    await this.counts.updateOne({ _id: workspaceId }, { $setOnInsert: { count: 0 } }, { upsert: true });
    const taken = await this.counts.updateOne({ _id: workspaceId, count: { $lt: limit } }, { $inc: { count: 1 } });
    return taken.matched === 1;
  }

  async givePlaceBack(workspaceId: string): Promise<void> {
    await this.counts.updateOne({ _id: workspaceId, count: { $gt: 0 } }, { $inc: { count: -1 } });
  }

  /** Stores a new skill; false when the workspace already has one of that name. */
  async insert(skill: WorkspaceSkillDocument): Promise<boolean> {
    try {
      await this.skills.insertOne(skill);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  find(workspaceId: string, skillId: string): Promise<WorkspaceSkillDocument | null> {
    return this.skills.findOne({ _id: skillId, workspace_id: workspaceId });
  }

  listIn(workspaceId: string): Promise<WorkspaceSkillDocument[]> {
    return this.skills.find({ workspace_id: workspaceId }, { sort: { created_at_ms: 1 } });
  }

  /** Applies a change only if the skill is still at `revision`; false when another write came first. */
  async update(skill: WorkspaceSkillDocument, change: SkillChange): Promise<boolean> {
    const result = await this.skills.updateOne(
      { _id: skill._id, revision: skill.revision },
      { $set: { ...change }, $inc: { revision: 1 } },
    );
    return result.matched === 1;
  }

  /** Deletes a skill; false when it was already gone. */
  async delete(workspaceId: string, skillId: string): Promise<boolean> {
    const deleted = await this.skills.deleteOne({ _id: skillId, workspace_id: workspaceId });
    if (deleted === 1) await this.files.deleteMany({ skill_id: skillId });
    return deleted === 1;
  }

  async saveFiles(id: string, skillId: string, files: SkillFiles): Promise<void> {
    await this.files.insertOne({
      _id: id,
      skill_id: skillId,
      files: Object.entries(files).map(([path, text]) => ({ path, text })),
    });
  }

  async dropFiles(id: string): Promise<void> {
    await this.files.deleteOne({ _id: id });
  }

  async filesOf(id: string): Promise<SkillFiles> {
    const found = await this.files.findOne({ _id: id });
    return Object.fromEntries((found?.files ?? []).map(({ path, text }) => [path, text]));
  }
}
