import { errors, httpError, MailDeliveryError, type Clock, type Mail, type MailMessage } from '@rde/platform';
import { hashSecret } from '../domain/secrets';
import { SPEND_FAILURES, type SpendFailure } from '../domain/sign-in';
import type { AuthStore, MagicLinkDocument } from '../store';

/** The spec's 400 for a link or code that cannot be spent: `detail` {reason, message}. */
export function spendFailure(reason: SpendFailure) {
  return errors.badRequest({ detail: { reason, message: SPEND_FAILURES[reason] } });
}

/**
 * Stores a row, then sends its email; when the mail server refuses, the row is removed and the
 * caller gets 502, so nothing half-created stays behind.
 */
export async function storeThenMail(
  store: () => Promise<void>,
  unstore: () => Promise<void>,
  mail: Mail,
  message: MailMessage,
): Promise<void> {
  await store();
  try {
    await sendOr502(mail, message);
  } catch (error) {
    await unstore();
    throw error;
  }
}

/** Sends an email; a refusing or unreachable mail server is the spec's 502. */
export async function sendOr502(mail: Mail, message: MailMessage): Promise<void> {
  try {
    await mail.send(message);
  } catch (error) {
    if (error instanceof MailDeliveryError)
      throw httpError(502, { detail: 'The email could not be delivered; try again later' });
    throw error;
  }
}

/** Single-use emailed links (sign-in and set-password): spending one, with the spec's reasons. */
export class EmailedLinks {
  constructor(
    private readonly store: AuthStore,
    private readonly clock: Clock,
  ) {}

  /** Spends the link whose token this is, or refuses with `missing`, `unknown`, `used` or `expired`. */
  async spendToken(token: string, purpose: MagicLinkDocument['purpose']): Promise<MagicLinkDocument> {
    if (!token) throw spendFailure('missing');
    const row = await this.store.magicLinks.byId(hashSecret(token));
    if (!row || row.purpose !== purpose) throw spendFailure('unknown');
    return this.spend(row);
  }

  /** Spends a found row; a row spent by its link or its code (or a racing request) is `used`. */
  async spend(row: MagicLinkDocument): Promise<MagicLinkDocument> {
    this.assertSpendable(row);
    const spent = await this.store.magicLinks.spend(row._id, this.clock.now());
    if (!spent) throw spendFailure('used');
    return spent;
  }

  /** Refuses a row already spent (by its link or its code) or past its expiry. */
  assertSpendable(row: MagicLinkDocument): void {
    if (row.used_at_ms !== null) throw spendFailure('used');
    if (row.expires_at_ms <= this.clock.now()) throw spendFailure('expired');
  }
}
