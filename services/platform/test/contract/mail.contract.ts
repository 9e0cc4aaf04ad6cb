import type { Mail, MailMessage } from '../../src/ports/mail';
import { uniqueName } from './support/real-backends';

export interface MailFixture {
  open(): Mail;
  /** What the recipient's inbox received, oldest first (waits for delivery where it is real). */
  received(address: string, count: number): Promise<MailMessage[]>;
}

/** What every mail adapter must do. */
export function describeMailContract(name: string, fixture: () => MailFixture): void {
  describe(`mail contract: ${name}`, () => {
    let subject: MailFixture;
    let mail: Mail;

    beforeAll(() => {
      subject = fixture();
      mail = subject.open();
    });
    afterAll(() => mail.close());

    it('delivers subject, text and reply address to the recipient', async () => {
      const to = `${uniqueName('mail')}@example.com`;
      await mail.send({ to, subject: 'Your code: 123456', text: 'line one\nline two', replyTo: 'reply@example.com' });
      const [received] = await subject.received(to, 1);
      expect(received).toEqual({
        to,
        subject: 'Your code: 123456',
        text: 'line one\nline two',
        replyTo: 'reply@example.com',
      });
    });

    it('delivers each message once, in the order sent', async () => {
      const to = `${uniqueName('mail')}@example.com`;
      for (const n of [1, 2, 3]) await mail.send({ to, subject: `message ${n}`, text: `body ${n}` });
      expect((await subject.received(to, 3)).map((message) => message.subject)).toEqual([
        'message 1',
        'message 2',
        'message 3',
      ]);
    });
  });
}
