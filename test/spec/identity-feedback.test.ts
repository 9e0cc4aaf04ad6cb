import { createServer, type Server } from 'node:http';
import { api } from '../e2e/api';
import { freePort, mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { mailWithSubject } from '../e2e/mail';
import { freshEmail, signIn, withCookie } from '../e2e/sign-in';

jest.setTimeout(120_000);

const SUPPORT_INBOX = `support.${Date.now()}@example.com`;

/** A stand-in issue tracker: records what was filed, and answers with the status the test sets. */
function issueTracker() {
  const filed: Record<string, unknown>[] = [];
  let status = 201;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      filed.push(JSON.parse(body) as Record<string, unknown>);
      response
        .writeHead(status, { 'content-type': 'application/json' })
        .end('{"number": 4242, "url": "https://tracker.example/4242"}');
    });
  });
  return { server, filed, failWith: (code: number) => (status = code) };
}

describe(`Feedback and support (${mode})`, () => {
  let rde: RunningRde;
  const tracker = issueTracker();

  beforeAll(async () => {
    const port = await freePort();
    await new Promise<void>((resolve) => tracker.server.listen(port, '127.0.0.1', resolve));
    rde = await startRde({
      RDE_SUPPORT_INBOX: SUPPORT_INBOX,
      RDE_ISSUE_WEBHOOK_URL: `http://127.0.0.1:${port}/issues`,
    });
  });

  afterAll(async () => {
    await rde?.stop();
    tracker.server.close();
  });

  const file = (bearer: object, message: string, category?: string) =>
    api(rde, 'POST', '/api/v2/feedback', { ...bearer, body: { message, ...(category ? { category } : {}) } });
  const list = (bearer: object, query = '') => api(rde, 'GET', `/api/v2/feedback${query}`, bearer);
  const waitForSupportMail = (title: string) => mailWithSubject(SUPPORT_INBOX, title);

  test("feedback is stored for the caller's workspace; its title is the first line", async () => {
    const { session } = await signIn(rde, freshEmail('feedback'));
    const filed = await file(withCookie(session), 'Search misses interns\nA search for "intern" finds nobody.', 'idea');
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({ title: 'Search misses interns', category: 'idea' });
  });

  test('the list is newest first, pages with offset and limit (default 10), and never shows tracker ids', async () => {
    const { session } = await signIn(rde, freshEmail('lister'));
    for (let n = 1; n <= 12; n++) await file(withCookie(session), `Report ${n}\ndetails`);
    const first = await list(withCookie(session));
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(12);
    expect(first.body.feedback.map((r: { title: string }) => r.title)).toEqual(
      [12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((n) => `Report ${n}`),
    );
    const page = await list(withCookie(session), '?offset=10&limit=5');
    expect(page.body.feedback.map((r: { title: string }) => r.title)).toEqual(['Report 2', 'Report 1']);
    for (const report of first.body.feedback) {
      expect(Object.keys(report).sort()).toEqual(['category', 'created_at', 'id', 'message', 'title', 'user_id']);
    }
  });

  test("another workspace's feedback is not listed", async () => {
    const { session } = await signIn(rde, freshEmail('private'));
    await file(withCookie(session), 'Private report');
    const { session: other } = await signIn(rde, freshEmail('other'));
    expect((await list(withCookie(other))).body).toMatchObject({ feedback: [], total: 0 });
  });

  test('feedback needs a bearer and a message: 401 without one, 422 for an empty message', async () => {
    expect((await file({ key: null }, 'hello')).status).toBe(401);
    const empty = await file({}, '   ');
    expect(empty.status).toBe(422);
    expect((await list({}, '?limit=0')).status).toBe(422);
  });

  test('an anonymous support submission emails the support inbox and stores nothing', async () => {
    const before = (await list({})).body.total;
    const reply = freshEmail('visitor');
    const sent = await api(rde, 'POST', '/api/v2/support', {
      key: null,
      body: { message: 'Pricing question\nDo you bill per seat?', email: reply },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ ok: true, stored: false });
    const mail = await waitForSupportMail('Pricing question');
    expect(mail.replyTo).toEqual([reply]);
    expect((await list({})).body.total).toBe(before);
  });

  test('a signed-in technical report is emailed, stored as feedback and filed to the issue tracker', async () => {
    const { session } = await signIn(rde, freshEmail('technical'));
    const sent = await api(rde, 'POST', '/api/v2/support', {
      ...withCookie(session),
      body: { message: 'Export crashes\nthe CSV export stops at row 10', category: 'technical' },
    });
    expect(sent.body).toEqual({ ok: true, stored: true });
    await waitForSupportMail('Export crashes');
    expect((await list(withCookie(session))).body.feedback[0].title).toBe('Export crashes');
    await waitUntil(async () => tracker.filed.some((issue) => issue.title === 'Export crashes'), 10_000);
  });

  test("a session's feedback is stored as the workspace's feedback too and filed to the issue tracker", async () => {
    const { session } = await signIn(rde, freshEmail('session-feedback'));
    const started = await api(rde, 'POST', '/session/start', {
      ...withCookie(session),
      body: { steps: ['find people'], user_prompt: 'find CTOs' },
    });
    const sid = started.body.id as string;
    const sent = await api(rde, 'POST', `/session/${sid}/feedback`, {
      ...withCookie(session),
      body: { message: 'Step 2 stalled\nthe enrichment never finished' },
    });
    expect(sent.status).toBe(200);
    const listed = (await list(withCookie(session))).body.feedback;
    expect(listed[0]).toMatchObject({ title: 'Step 2 stalled', category: 'session' });
    await waitUntil(async () => tracker.filed.some((issue) => issue.title === 'Step 2 stalled'), 10_000);
    expect(tracker.filed.find((issue) => issue.title === 'Step 2 stalled')!.body).toContain(sid);
  });

  test('a failing issue tracker never turns the sent support email into an error', async () => {
    tracker.failWith(500);
    const { session } = await signIn(rde, freshEmail('tracker-down'));
    const sent = await api(rde, 'POST', '/api/v2/support', {
      ...withCookie(session),
      body: { message: 'Tracker down report', category: 'technical' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ ok: true, stored: true });
    await waitForSupportMail('Tracker down report');
  });

  test('a malformed support submission is 422 and sends nothing', async () => {
    const response = await api(rde, 'POST', '/api/v2/support', { key: null, body: { message: '' } });
    expect(response.status).toBe(422);
  });
});
