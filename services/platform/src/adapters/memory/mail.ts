import type { Logger } from '../../logger';
import type { Mail, MailMessage } from '../../ports/mail';

/**
 * Development mail with no SMTP server: each message is logged (so a developer can follow the
 * link or type the code) and kept in memory for in-process tests. Never for production.
 */
export class LoggedMail implements Mail {
  readonly sent: MailMessage[] = [];

  constructor(private readonly logger: Logger) {}

  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    this.logger.info({ mail: message }, `mail to ${message.to} (not sent: no SMTP server configured)`);
  }

  async close(): Promise<void> {}
}
