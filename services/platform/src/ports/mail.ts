/** One email: plain text, since its content is not an interface (the spec says so). */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly replyTo?: string;
}

/** The mail port: magic links, codes, set-password links, the support inbox. */
export interface Mail {
  /** Resolves once the mail server accepted the message; rejects with MailDeliveryError otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** The mail server refused or could not be reached: the caller answers 502 and keeps nothing. */
export class MailDeliveryError extends Error {
  constructor(cause: unknown) {
    super(`mail delivery failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MailDeliveryError';
  }
}
