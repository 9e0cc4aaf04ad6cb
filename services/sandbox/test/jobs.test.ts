import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox } from './harness';

// Many HTTP round trips per test; CI machines may be busy.
jest.setTimeout(30_000);

let sandbox: Sandbox;
let receiver: CallbackReceiver;
beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await CallbackReceiver.start();
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.stop();
});
beforeEach(async () => {
  await sandbox.admin('POST', '/reset');
  // Long enough for a first poll to see the job unfinished.
  await sandbox.admin('PUT', '/knobs', { job_duration_ms: { median: 600, p95: 600 } });
});

/** Collects the POSTs vendors send to callback URLs. */
class CallbackReceiver {
  readonly received: { path: string; body: any }[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<CallbackReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new CallbackReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        receiver.received.push({ path: request.url!, body: JSON.parse(body) });
        response.end();
        receiver.waiters.splice(0).forEach((wake) => wake());
      });
    });
    return receiver;
  }

  async waitFor(path: string, timeoutMs = 5_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.received.find((r) => r.path === path);
      if (hit) return hit.body;
      if (Date.now() > deadline) throw new Error(`no callback on ${path}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function pollUntil<T>(poll: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await poll();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('job never completed');
}

async function someLinkedInUrls(count: number): Promise<string[]> {
  const { body } = await sandbox.call('pplgraph', 'POST', '/v1/people/search', {
    query: { job_title: ['engineer'] },
    size: count,
  });
  return body.data.map((p: { linkedin_url: string }) => p.linkedin_url);
}

describe('async jobs', () => {
  it('a Reachout lookup is processing at first, then completed when polled again', async () => {
    const [url] = await someLinkedInUrls(1);
    const submitted = await sandbox.call('reachout', 'POST', '/v2/lookups', { linkedin_url: url });
    expect(submitted.status).toBe(202);
    const first = await sandbox.call('reachout', 'GET', `/v2/lookups/${submitted.body.lookup_id}`);
    expect(first.body.status).toBe('processing');
    const done = await pollUntil(
      () => sandbox.call('reachout', 'GET', `/v2/lookups/${submitted.body.lookup_id}`),
      (r) => r.body.status === 'completed',
    );
    expect(done.body).toHaveProperty('email');
  });

  it('a Reachout lookup POSTs its callback when done, and the poll then answers completed', async () => {
    const [url] = await someLinkedInUrls(1);
    const submitted = await sandbox.call('reachout', 'POST', '/v2/lookups', {
      linkedin_url: url,
      callback_url: `${receiver.url}/reachout/1`,
    });
    const callback = await receiver.waitFor('/reachout/1');
    expect(callback).toEqual({ lookup_id: submitted.body.lookup_id, status: 'completed' });
    expect((await sandbox.call('reachout', 'GET', `/v2/lookups/${submitted.body.lookup_id}`)).body.status).toBe(
      'completed',
    );
  });

  it('a RingDirect request completes by poll and by callback', async () => {
    const [url] = await someLinkedInUrls(1);
    const polled = await sandbox.call('ringdirect', 'POST', '/v1/requests', { profile_url: url });
    const done = await pollUntil(
      () => sandbox.call('ringdirect', 'GET', `/v1/requests/${polled.body.request_id}`),
      (r) => r.body.state === 'finished',
    );
    expect(done.body).toHaveProperty('mobile');
    const called = await sandbox.call('ringdirect', 'POST', '/v1/requests', {
      profile_url: url,
      callback_url: `${receiver.url}/ring/1`,
    });
    expect(await receiver.waitFor('/ring/1')).toEqual({ request_id: called.body.request_id, state: 'finished' });
  });

  it('refuses a callback URL off loopback', async () => {
    const [url] = await someLinkedInUrls(1);
    for (const callback_url of ['http://10.1.2.3/hook', 'http://example.com/hook', 'ftp://127.0.0.1/hook']) {
      const refused = await sandbox.call('reachout', 'POST', '/v2/lookups', { linkedin_url: url, callback_url });
      expect(refused.status).toBe(400);
    }
    const allowed = await sandbox.call('reachout', 'POST', '/v2/lookups', {
      linkedin_url: url,
      callback_url: 'http://[::1]:9/hook',
    });
    expect(allowed.status).toBe(202);
  });

  it('answers 404 for a job it never issued', async () => {
    expect((await sandbox.call('reachout', 'GET', '/v2/lookups/lk_nope')).status).toBe(404);
    expect((await sandbox.call('bulkmail', 'GET', '/v1/batches/bat_nope')).status).toBe(404);
  });
});

describe('batch jobs', () => {
  async function contacts(count: number) {
    const { body } = await sandbox.call('pplgraph', 'POST', '/v1/people/search', {
      query: { job_title: ['recruiter'] },
      size: count,
    });
    return body.data.map((p: any, i: number) => ({
      ref: `row-${i}`,
      first_name: p.first_name,
      last_name: p.last_name,
      domain: p.job_company_website,
    }));
  }

  /** The universe's own record of each contact's work email, through the admin API. */
  async function truthByName(): Promise<Map<string, string>> {
    const { body } = await sandbox.call('pplgraph', 'POST', '/v1/people/search', {
      query: { job_title: ['recruiter'] },
      size: 40,
    });
    const people = await Promise.all(
      body.data.map((p: { pg_id: string }) => sandbox.admin('GET', `/people/${parseInt(p.pg_id.slice(3), 36)}`)),
    );
    return new Map(people.map((r) => [`${r.body.firstName} ${r.body.lastName}`, r.body.workEmail]));
  }

  it('returns results in another order than submitted, each carrying the ref it was sent with', async () => {
    const sent = await contacts(40);
    const submitted = await sandbox.call('bulkmail', 'POST', '/v1/batches', { contacts: sent });
    expect(submitted.status).toBe(201);
    expect((await sandbox.call('bulkmail', 'GET', `/v1/batches/${submitted.body.batch_id}`)).body.state).toBe(
      'pending',
    );
    const done = await pollUntil(
      () => sandbox.call('bulkmail', 'GET', `/v1/batches/${submitted.body.batch_id}`),
      (r) => r.body.state === 'done',
    );
    const results: { ref: string; email: string | null }[] = done.body.results;
    expect(results.map((r) => r.ref)).not.toEqual(sent.map((c: { ref: string }) => c.ref));
    expect(new Set(results.map((r) => r.ref))).toEqual(new Set(sent.map((c: { ref: string }) => c.ref)));
    const byRef = new Map(results.map((r) => [r.ref, r.email]));
    const truth = await truthByName();
    const found = sent.filter((c: { ref: string }) => byRef.get(c.ref));
    expect(found.length).toBeGreaterThan(5);
    for (const contact of found)
      expect(byRef.get(contact.ref)).toBe(truth.get(`${contact.first_name} ${contact.last_name}`));
  });

  it('POSTs the webhook when the batch is done', async () => {
    const submitted = await sandbox.call('bulkmail', 'POST', '/v1/batches', {
      contacts: await contacts(5),
      webhook_url: `${receiver.url}/batch/1`,
    });
    expect(await receiver.waitFor('/batch/1')).toEqual({ batch_id: submitted.body.batch_id, state: 'done' });
    expect((await sandbox.call('bulkmail', 'GET', `/v1/batches/${submitted.body.batch_id}`)).body.state).toBe('done');
  });

  it('takes at most 100 contacts, with unique refs', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({
      ref: `r${i}`,
      linkedin_url: 'https://www.linkedin.com/in/x-y-1',
    }));
    expect((await sandbox.call('bulkmail', 'POST', '/v1/batches', { contacts: many })).status).toBe(400);
    const twice = [{ ref: 'same' }, { ref: 'same' }];
    expect((await sandbox.call('bulkmail', 'POST', '/v1/batches', { contacts: twice })).status).toBe(400);
  });
});
