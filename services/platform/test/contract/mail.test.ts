import { LoggedMail } from '../../src/adapters/memory/mail';
import { SmtpMail } from '../../src/adapters/smtp/mail';
import { MailDeliveryError, type MailMessage } from '../../src/ports/mail';
import { describeMailContract } from './mail.contract';
import { describeWithEnv, testLogger } from './support/real-backends';
import { waitUntil } from './support/wait';

describeMailContract('logged (development)', () => {
  const mail = new LoggedMail(testLogger);
  return {
    open: () => mail,
    received: async (address) => mail.sent.filter((message) => message.to === address),
  };
});

describeWithEnv('SMTP', ['RDE_SMTP_URL', 'RDE_MAILPIT_URL'], ({ RDE_SMTP_URL, RDE_MAILPIT_URL }) => {
  /** The messages Mailpit received for an address, oldest first, read through its HTTP API. */
  async function inbox(address: string): Promise<MailMessage[]> {
    const query = encodeURIComponent(`to:"${address}"`);
    const found = (await (await fetch(`${RDE_MAILPIT_URL}/api/v1/search?query=${query}`)).json()) as {
      messages: { ID: string }[];
    };
    const messages = await Promise.all(
      found.messages.map(async ({ ID }) => {
        const message = (await (await fetch(`${RDE_MAILPIT_URL}/api/v1/message/${ID}`)).json()) as {
          To: { Address: string }[];
          Subject: string;
          Text: string;
          ReplyTo: { Address: string }[];
        };
        const replyTo = message.ReplyTo[0]?.Address;
        // SMTP carries text with CRLF line ends and a final newline: compare the text as sent.
        return {
          to: message.To[0].Address,
          subject: message.Subject,
          text: message.Text.replace(/\r\n/g, '\n').replace(/\n$/, ''),
          ...(replyTo ? { replyTo } : {}),
        };
      }),
    );
    return messages.reverse();
  }

  describeMailContract(`SMTP (${RDE_SMTP_URL})`, () => ({
    open: () => new SmtpMail(RDE_SMTP_URL, 'RDE tests <tests@rde.local>'),
    received: async (address, count) => {
      let messages: MailMessage[] = [];
      await waitUntil(async () => (messages = await inbox(address)).length >= count, 10_000);
      return messages;
    },
  }));

  it('a recipient the server refuses rejects with MailDeliveryError', async () => {
    const mail = new SmtpMail(RDE_SMTP_URL, 'RDE tests <tests@rde.local>');
    try {
      await expect(mail.send({ to: 'nobody@mail.invalid', subject: 's', text: 't' })).rejects.toBeInstanceOf(
        MailDeliveryError,
      );
    } finally {
      await mail.close();
    }
  });

  it('an unreachable server rejects with MailDeliveryError', async () => {
    const mail = new SmtpMail('smtp://127.0.0.1:1', 'RDE tests <tests@rde.local>');
    try {
      await expect(mail.send({ to: 'someone@example.com', subject: 's', text: 't' })).rejects.toBeInstanceOf(
        MailDeliveryError,
      );
    } finally {
      await mail.close();
    }
  });
});
