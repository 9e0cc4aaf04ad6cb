import nodemailer, { type Transporter } from 'nodemailer';
import { MailDeliveryError, type Mail, type MailMessage } from '../../ports/mail';

/** The production mail adapter: SMTP through nodemailer, one pooled transport per process. */
export class SmtpMail implements Mail {
  private readonly transport: Transporter;

  /** `smtpUrl` as nodemailer reads it: `smtp://user:pass@host:port` or `smtps://…` for implicit TLS. */
  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, ...message });
    } catch (error) {
      throw new MailDeliveryError(error);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
