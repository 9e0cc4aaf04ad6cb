import { RdeError, type Clock } from '@rde/platform';
import type { AuthClient } from '../../clients';

/** A bound on the cache, so a flood of distinct grants cannot grow it without limit. */
const MAX_ENTRIES = 10_000;

/**
 * Whether a grant's user still belongs to its workspace, asked of auth (the owner of memberships).
 * `current` always asks; `recent` trusts an answer for `cacheMs`, the price of keeping auth off
 * most MCP requests (the same delay the gateway's bearer cache gives API keys; decision 0029).
 */
export class Membership {
  private readonly answers = new Map<string, { role: string; until: number }>();

  constructor(
    private readonly auth: AuthClient,
    private readonly clock: Clock,
    private readonly cacheMs: number,
  ) {}

  /** The user's role in the workspace now, or undefined when they are no longer a member. */
  async current(userId: string, workspaceId: string): Promise<string | undefined> {
    try {
      const { role } = await this.auth.getMembership({ userId, workspaceId });
      return role;
    } catch (error) {
      if (error instanceof RdeError && error.httpStatus === 404) return undefined;
      throw error;
    }
  }

  /** As `current`, from an answer at most `cacheMs` old when there is one; a refusal is never cached. */
  async recent(userId: string, workspaceId: string): Promise<string | undefined> {
    const key = `${userId} ${workspaceId}`;
    const now = this.clock.now();
    const cached = this.answers.get(key);
    if (cached && cached.until > now) return cached.role;
    const role = await this.current(userId, workspaceId);
    if (role === undefined) this.answers.delete(key);
    else if (this.cacheMs > 0) {
      if (this.answers.size >= MAX_ENTRIES) this.answers.clear();
      this.answers.set(key, { role, until: now + this.cacheMs });
    }
    return role;
  }
}
