import { indexedCollection, type Collection, type DocumentStore } from '@rde/platform';
import type { Role } from '../domain/roles';
import { newId } from '../domain/ids';
import { insertUnlessExists } from './insert';

export type MembershipDocument = {
  _id: string;
  workspace_id: string;
  user_id: string;
  role: Role;
  created_at_ms: number;
};

/** Who belongs to which workspace, with which role: at most one membership per (workspace, user). */
export class MembershipsRepository {
  private constructor(private readonly collection: Collection<MembershipDocument>) {}

  static async open(store: DocumentStore): Promise<MembershipsRepository> {
    return new MembershipsRepository(
      await indexedCollection<MembershipDocument>(store, 'memberships', [
        { keys: { workspace_id: 1, user_id: 1 }, unique: true, name: 'workspace_user_unique' },
      ]),
    );
  }

  /** Adds a user to a workspace; false when they already belong to it. */
  add(workspaceId: string, userId: string, role: Role, now: number): Promise<boolean> {
    return insertUnlessExists(this.collection, {
      _id: newId('mem'),
      workspace_id: workspaceId,
      user_id: userId,
      role,
      created_at_ms: now,
    });
  }

  /** Ends a membership; false when there was none. */
  async remove(workspaceId: string, userId: string): Promise<boolean> {
    return (await this.collection.deleteOne({ workspace_id: workspaceId, user_id: userId })) === 1;
  }

  /** Moves a member from one role to another; false when they did not hold `from` (the guard). */
  async changeRole(workspaceId: string, userId: string, from: Role, to: Role): Promise<boolean> {
    const result = await this.collection.updateOne(
      { workspace_id: workspaceId, user_id: userId, role: from },
      { $set: { role: to } },
    );
    return result.matched === 1;
  }

  /** The workspace's owners, earliest first. */
  owners(workspaceId: string): Promise<MembershipDocument[]> {
    return this.collection.find({ workspace_id: workspaceId, role: 'owner' }, { sort: { created_at_ms: 1, _id: 1 } });
  }

  of(workspaceId: string, userId: string): Promise<MembershipDocument | null> {
    return this.collection.findOne({ workspace_id: workspaceId, user_id: userId });
  }

  /** Every member of a workspace, earliest first. */
  list(workspaceId: string): Promise<MembershipDocument[]> {
    return this.collection.find({ workspace_id: workspaceId }, { sort: { created_at_ms: 1, _id: 1 } });
  }

  /** The user's first membership: their home workspace. */
  firstOf(userId: string): Promise<MembershipDocument | null> {
    return this.collection.findOne({ user_id: userId }, { sort: { created_at_ms: 1, _id: 1 } });
  }

  /** Every workspace the user belongs to, earliest first. */
  ofUser(userId: string): Promise<MembershipDocument[]> {
    return this.collection.find({ user_id: userId }, { sort: { created_at_ms: 1, _id: 1 } });
  }

  count(workspaceId: string): Promise<number> {
    return this.collection.countDocuments({ workspace_id: workspaceId });
  }
}
