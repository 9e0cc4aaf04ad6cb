import { errors } from '@rde/platform';
import { hashPassword, passwordMatches } from '../domain/passwords';
import { hashSecret } from '../domain/secrets';
import type { AuthStore } from '../store';
import type { CompleteSignIn, SignedIn } from './complete-sign-in';
import type { EmailedLinks } from './emailed-links';

/** Password sign-in: set or reset by an emailed link (which proves the email), then log in. */
export class Passwords {
  /** Compared against when the email has no password, so both cases cost one argon2 verification. */
  private readonly decoy: Promise<string>;

  constructor(
    private readonly store: AuthStore,
    private readonly links: EmailedLinks,
    private readonly complete: CompleteSignIn,
  ) {
    this.decoy = hashPassword('decoy password never matched');
  }

  /** Spends a set-password link, sets the password and signs in. */
  async completeSignup(token: string, password: string): Promise<SignedIn> {
    const row = await this.links.spendToken(token, 'set_password');
    const user = await this.store.users.ensure(row.email);
    await this.store.users.setPassword(user._id, await hashPassword(password));
    return this.complete.run(user, { claimHash: row.claim_hash, next: row.next, inviteCodeHash: row.invite_code_hash });
  }

  /**
   * 401 with one body for every mismatch: no user, no password, wrong password, unverified email.
   * Each costs one argon2 verification, so timing does not tell them apart either.
   */
  async login(email: string, password: string, cliToken?: string): Promise<SignedIn> {
    const user = await this.store.users.byEmail(email);
    const matches = await passwordMatches(user?.password_hash ?? (await this.decoy), password);
    if (!user?.password_hash || !matches || user.email_verified === false) {
      throw errors.unauthenticated('Invalid email or password');
    }
    return this.complete.run(user, { claimHash: cliToken ? hashSecret(cliToken) : null });
  }
}
