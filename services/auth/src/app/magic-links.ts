import { httpError, type Clock, type KeyValue, type Mail } from '@rde/platform';
import { hashCode, hashSecret, mintCode, mintSecret, sameDigest } from '../domain/secrets';
import {
  allowedNext,
  CODE_GUESS_CAP,
  CODE_REQUEST_CAP,
  CODE_WINDOW_MS,
  EMAIL_SEND_CAP,
  MAGIC_LINK_TTL_MS,
  SET_PASSWORD_TTL_MS,
  WELL_FORMED_CODE,
} from '../domain/sign-in';
import type { AuthStore, MagicLinkDocument, UserDocument } from '../store';
import type { CompleteSignIn, SignedIn } from './complete-sign-in';
import { spendFailure, storeThenMail, type EmailedLinks } from './emailed-links';

export interface SignInRequest {
  readonly email: string;
  readonly cliToken?: string;
  readonly next?: string;
  readonly inviteCode?: string;
}

/** A legacy password account that never proved its email sets a password before anything else. */
export interface MustSetPassword {
  readonly kind: 'set_password';
  readonly user: UserDocument;
  readonly setPasswordToken: string;
}

export type VerifyOutcome = SignedIn | MustSetPassword;

/** Magic link and 6-digit code: one emailed row, spent once by whichever comes first. */
export class MagicLinks {
  constructor(
    private readonly store: AuthStore,
    private readonly links: EmailedLinks,
    private readonly complete: CompleteSignIn,
    private readonly mail: Mail,
    private readonly counters: KeyValue,
    private readonly clock: Clock,
    private readonly dashboardUrl: string,
    private readonly ttlMs: number = MAGIC_LINK_TTL_MS,
  ) {}

  async send(request: SignInRequest): Promise<void> {
    await this.countSend(request.email);
    const token = mintSecret('rde_ml_');
    const code = mintCode();
    const row = this.row(request, token, 'sign_in', this.ttlMs);
    row.code_hash = hashCode(row._id, code);
    const link = new URL(`auth/verify?token=${encodeURIComponent(token)}`, this.dashboardUrl).toString();
    await storeThenMail(
      () => this.store.magicLinks.insert(row),
      () => this.store.magicLinks.remove(row._id),
      this.mail,
      {
        to: request.email,
        subject: `Your RDE sign-in code: ${code}`,
        text: `Sign in to RDE with this link:\n\n${link}\n\nor type this code: ${code}\n\nEither works once, for ${Math.round(this.ttlMs / 60_000)} minutes.`,
      },
    );
  }

  /** Emails a set-password link, whether or not the address has an account (the answer is the same). */
  async sendSetPassword(request: SignInRequest): Promise<void> {
    await this.countSend(request.email);
    const token = mintSecret('rde_pw_');
    const row = this.row(request, token, 'set_password', SET_PASSWORD_TTL_MS);
    const link = new URL(`auth/set-password?token=${encodeURIComponent(token)}`, this.dashboardUrl).toString();
    await storeThenMail(
      () => this.store.magicLinks.insert(row),
      () => this.store.magicLinks.remove(row._id),
      this.mail,
      {
        to: request.email,
        subject: 'Set your RDE password',
        text: `Set your RDE password with this link (it expires in an hour and works once):\n\n${link}`,
      },
    );
  }

  async verify(token: string): Promise<VerifyOutcome> {
    return this.signIn(await this.links.spendToken(token, 'sign_in'));
  }

  /**
   * Spends the newest link's code of an email. Caps are counted per email in the key-value store,
   * so every replica shares them: after CODE_GUESS_CAP wrong codes, or CODE_REQUEST_CAP requests,
   * the email is `locked` until the window ends.
   */
  async verifyCode(email: string, code: string): Promise<VerifyOutcome> {
    const requests = await this.counters.increment(`code-requests:${email}`, CODE_WINDOW_MS);
    const wrong = Number((await this.counters.get(`code-guesses:${email}`)) ?? 0);
    if (requests > CODE_REQUEST_CAP || wrong >= CODE_GUESS_CAP) throw spendFailure('locked');
    if (!WELL_FORMED_CODE.test(code)) throw spendFailure('invalid');
    const row = await this.store.magicLinks.newestSignIn(email);
    if (!row) throw spendFailure('unknown');
    this.links.assertSpendable(row);
    if (!sameDigest(hashCode(row._id, code), row.code_hash)) {
      await this.counters.increment(`code-guesses:${email}`, CODE_WINDOW_MS);
      throw spendFailure('wrong');
    }
    return this.signIn(await this.links.spend(row));
  }

  /** Starts the set-password step with a fresh single-use token (no email: this browser proved it). */
  async mustSetPassword(user: UserDocument, from: MagicLinkDocument): Promise<MustSetPassword> {
    const token = mintSecret('rde_pw_');
    const row = this.row({ email: user.email }, token, 'set_password', SET_PASSWORD_TTL_MS);
    await this.store.magicLinks.insert({
      ...row,
      claim_hash: from.claim_hash,
      next: from.next,
      invite_code_hash: from.invite_code_hash,
    });
    return { kind: 'set_password', user, setPasswordToken: token };
  }

  /** 429 past EMAIL_SEND_CAP emails to one address in the window, counted across replicas. */
  private async countSend(email: string): Promise<void> {
    const sent = await this.counters.increment(`sends:${email}`, CODE_WINDOW_MS);
    if (sent > EMAIL_SEND_CAP)
      throw httpError(429, { detail: 'Too many emails to this address; try again in 15 minutes' });
  }

  private async signIn(row: MagicLinkDocument): Promise<VerifyOutcome> {
    const user = await this.store.users.ensure(row.email);
    if (user.password_hash && user.email_verified === false) return this.mustSetPassword(user, row);
    return this.complete.run(user, { claimHash: row.claim_hash, next: row.next, inviteCodeHash: row.invite_code_hash });
  }

  private row(
    request: SignInRequest,
    token: string,
    purpose: MagicLinkDocument['purpose'],
    ttlMs: number,
  ): MagicLinkDocument {
    const now = this.clock.now();
    return {
      _id: hashSecret(token),
      purpose,
      email: request.email,
      code_hash: '',
      claim_hash: request.cliToken ? hashSecret(request.cliToken) : null,
      next: allowedNext(request.next) ?? null,
      invite_code_hash: request.inviteCode ? hashSecret(request.inviteCode) : null,
      created_at_ms: now,
      expires_at_ms: now + ttlMs,
      used_at_ms: null,
    };
  }
}
