import { waitUntil } from './harness';

/**
 * The real SMTP server's inbox (Mailpit's HTTP API, from `deploy/backends.sh env`): tests read
 * the emails RDE sent to follow a link or type a code, as a person would.
 */
export interface ReceivedMail {
  readonly id: string;
  readonly subject: string;
  readonly text: string;
  readonly replyTo: string[];
}

function mailpitUrl(): string {
  const url = process.env.RDE_MAILPIT_URL;
  if (!url || !process.env.RDE_SMTP_URL) {
    throw new Error(
      'these tests read real mail: start Mailpit and export RDE_SMTP_URL and RDE_MAILPIT_URL (deploy/backends.sh env)',
    );
  }
  return url;
}

interface Summary {
  ID: string;
}

/** Every message to this address, newest first. */
export async function mailsTo(address: string): Promise<ReceivedMail[]> {
  const query = encodeURIComponent(`to:"${address}"`);
  const found = (await (await fetch(`${mailpitUrl()}/api/v1/search?query=${query}&limit=50`)).json()) as {
    messages: Summary[];
  };
  return Promise.all(
    found.messages.map(async ({ ID }) => {
      const message = (await (await fetch(`${mailpitUrl()}/api/v1/message/${ID}`)).json()) as {
        Subject: string;
        Text: string;
        ReplyTo: { Address: string }[];
      };
      return { id: ID, subject: message.Subject, text: message.Text, replyTo: message.ReplyTo.map((r) => r.Address) };
    }),
  );
}

/** Waits for the `count`-th message to this address and returns the newest. */
export async function nthMailTo(address: string, count = 1): Promise<ReceivedMail> {
  let mails: ReceivedMail[] = [];
  await waitUntil(async () => (mails = await mailsTo(address)).length >= count, 15_000, 100);
  return mails[0];
}

/** Waits for the message to this address whose subject carries `text` (a support report's title). */
export async function mailWithSubject(address: string, text: string): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await waitUntil(async () => {
    found = (await mailsTo(address)).find((mail) => mail.subject.includes(text));
    return found !== undefined;
  }, 15_000);
  return found!;
}

/** The link token and the 6-digit code of a sign-in email. */
export function signInSecrets(mail: ReceivedMail): { token: string; code: string } {
  const token = /[?&]token=([A-Za-z0-9_%-]+)/.exec(mail.text)?.[1];
  const code = /code: (\d{6})/.exec(mail.text)?.[1];
  if (!token || !code) throw new Error(`not a sign-in email: ${mail.text}`);
  return { token: decodeURIComponent(token), code };
}

/** The link token of a set-password email. */
export function linkToken(mail: ReceivedMail): string {
  const token = /[?&]token=([A-Za-z0-9_%-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no link in: ${mail.text}`);
  return decodeURIComponent(token);
}
