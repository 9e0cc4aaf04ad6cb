import { vendorDescriptors } from '../src';
import { query, startSandbox, type Sandbox } from './harness';

// Many HTTP round trips per test; CI machines may be busy.
jest.setTimeout(30_000);

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

async function pplgraph(filters: Record<string, unknown>, size = 50) {
  const response = await sandbox.call('pplgraph', 'POST', '/v1/people/search', { query: filters, size });
  expect(response.status).toBe(200);
  return response.body;
}

async function prospectdb(params: Record<string, string | string[] | number>) {
  const response = await sandbox.call('prospectdb', 'GET', '/api/v1/people' + query(params));
  expect(response.status).toBe(200);
  return response.body;
}

describe('every vendor', () => {
  it('declares distinct prefixes, auth headers and keys', () => {
    expect(vendorDescriptors.length).toBeGreaterThanOrEqual(14);
    expect(new Set(vendorDescriptors.map((d) => d.prefix)).size).toBe(vendorDescriptors.length);
    expect(new Set(vendorDescriptors.map((d) => d.auth.key)).size).toBe(vendorDescriptors.length);
    expect(new Set(vendorDescriptors.map((d) => `${d.auth.header} ${d.auth.scheme ?? ''}`)).size).toBeGreaterThan(8);
  });

  it.each(vendorDescriptors.flatMap((d) => d.endpoints.map((e) => [d.id, e.name, e.method, e.path] as const)))(
    '%s %s: refuses a call without its key, in its own error shape, and serves the route with it',
    async (vendor, _name, method, path) => {
      const url = path.replace(/:[a-z_]+/, 'unknown-id');
      const refused = await sandbox.call(vendor, method, url, method === 'POST' ? {} : undefined, {});
      expect(refused.status).toBe(401);
      expect(JSON.stringify(refused.body)).toMatch(/invalid|missing/i);
      const served = await sandbox.call(vendor, method, url, method === 'POST' ? {} : undefined);
      expect([200, 400, 404]).toContain(served.status);
      expect(served.body).toBeDefined();
    },
  );

  it('work-email finders overlap imperfectly: the three together find more than any one', async () => {
    const { data } = await pplgraph({ job_title: ['engineer'] }, 100);
    const mailfinder = await Promise.all(
      data.map((p: any) =>
        sandbox.call(
          'mailfinder',
          'GET',
          '/v1/email' + query({ first_name: p.first_name, last_name: p.last_name, domain: p.job_company_website }),
        ),
      ),
    );
    const reachout = await Promise.all(
      data.map(async (p: any) => {
        const { body } = await sandbox.call('reachout', 'POST', '/v2/lookups', { linkedin_url: p.linkedin_url });
        return sandbox.call('reachout', 'GET', `/v2/lookups/${body.lookup_id}`);
      }),
    );
    const contacts = data.map((p: any, i: number) => ({ ref: String(i), linkedin_url: p.linkedin_url }));
    const batch = await sandbox.call('bulkmail', 'POST', '/v1/batches', { contacts });
    const bulk = await sandbox.call('bulkmail', 'GET', `/v1/batches/${batch.body.batch_id}`);
    const bulkHits = new Set(bulk.body.results.filter((r: any) => r.email).map((r: any) => Number(r.ref)));
    const found = [
      mailfinder.map((r) => Boolean(r.body.data)),
      reachout.map((r) => Boolean(r.body.email)),
      data.map((_: unknown, i: number) => bulkHits.has(i)),
    ];
    const singles = found.map((hits) => hits.filter(Boolean).length);
    const union = data.filter((_: unknown, i: number) => found.some((hits) => hits[i])).length;
    expect(Math.min(...singles)).toBeGreaterThan(20);
    expect(union).toBeGreaterThan(Math.max(...singles) + 10);
  });
});

describe('PeopleGraph', () => {
  it('expresses skills and keywords', async () => {
    const { data } = await pplgraph({ skills: ['Terraform'], keywords: 'senior' });
    expect(data.length).toBeGreaterThan(10);
    for (const p of data) {
      expect(p.skills).toContain('terraform');
      expect(p.job_title).toMatch(/Senior/);
    }
  });

  it('bills per returned profile and pages with a scroll token', async () => {
    const first = await pplgraph({ job_title: ['recruiter'] }, 20);
    expect(first.credits_charged).toBe(20);
    const next = await sandbox.call('pplgraph', 'POST', '/v1/people/search', {
      query: { job_title: ['recruiter'] },
      size: 20,
      scroll_token: first.scroll_token,
    });
    expect(
      next.body.data.map((p: any) => p.pg_id).filter((id: string) => first.data.some((p: any) => p.pg_id === id)),
    ).toEqual([]);
  });

  it('resolves only its own place names; an unknown one is a 400', async () => {
    const { data } = await pplgraph({ location: ['berlin'], job_title: ['engineer'] });
    expect(data.every((p: any) => p.location_name === 'berlin, berlin, germany')).toBe(true);
    const unknown = await sandbox.call('pplgraph', 'POST', '/v1/people/search', { query: { location: ['bay area'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.type).toBe('invalid_request_error');
  });

  it('accepts job_department and silently does not apply it', async () => {
    const { data } = await pplgraph({ job_department: ['legal'], location: ['london'] });
    expect(data.some((p: any) => p.job_department !== 'legal')).toBe(true);
  });

  it('refuses filter keys it does not know', async () => {
    expect((await sandbox.call('pplgraph', 'POST', '/v1/people/search', { query: { shoe_size: [42] } })).status).toBe(
      400,
    );
  });
});

describe('ProspectDB', () => {
  it('pages 25 at a time, without overlap, and reports totals', async () => {
    const one = await prospectdb({ title: 'engineer', geo: 'GB-LONDON' });
    const two = await prospectdb({ title: 'engineer', geo: 'GB-LONDON', page: 2 });
    expect(one.people).toHaveLength(25);
    expect(two.people).toHaveLength(25);
    expect(two.people.filter((p: any) => one.people.some((q: any) => q.id === p.id))).toEqual([]);
    expect(one.pagination).toMatchObject({ page: 1, per_page: 25 });
    expect(one.pagination.total_pages).toBeGreaterThan(2);
    expect(
      (await sandbox.call('prospectdb', 'GET', '/api/v1/people' + query({ title: 'engineer', per_page: 26 }))).status,
    ).toBe(400);
  });

  it('sizes pages as asked: 22 per page for a limit of 130 over 6 pages', async () => {
    const pages = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((page) => prospectdb({ title: 'engineer', page, per_page: 22 })),
    );
    const ids = pages.flatMap((p) => p.people.map((person: any) => person.id));
    expect(ids).toHaveLength(132);
    expect(new Set(ids).size).toBe(132);
  });

  it('silently ignores skills, min_years and unknown geo codes', async () => {
    const plain = await prospectdb({ title: 'recruiter' });
    expect(await prospectdb({ title: 'recruiter', skills: 'Rust', min_years: 30 })).toEqual(plain);
    expect(await prospectdb({ title: 'recruiter', geo: 'XX-NOWHERE' })).toEqual(plain);
  });

  it('reads geo codes as whole metros: US-SFBAY brings other Bay Area cities', async () => {
    const cities = new Set<string>();
    for (const page of [1, 2, 3, 4])
      for (const p of (await prospectdb({ geo: 'US-SFBAY', title: 'engineer', page })).people) cities.add(p.geo.city);
    expect(cities).toContain('San Francisco');
    expect([...cities].some((city) => city !== 'San Francisco')).toBe(true);
    const geos = (await sandbox.call('prospectdb', 'GET', '/api/v1/geo' + query({ q: 'oakland' }))).body.geos;
    expect(geos).toEqual([expect.objectContaining({ code: 'US-SFBAY' })]);
  });
});

describe('public-web and LinkedIn search', () => {
  it('WebScout refuses filters it cannot express, such as skills', async () => {
    const response = await sandbox.call('webscout', 'POST', '/v2/search', { company: 'Globex', skills: ['Go'] });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ ok: false, status: 400 });
  });

  it('WebScout returns structured work history, newest first', async () => {
    const { body } = await sandbox.call('webscout', 'POST', '/v2/search', { company: 'globex.com' });
    expect(body.people.length).toBeGreaterThan(0);
    for (const person of body.people) {
      expect(person.work_history[0]).toMatchObject({ employer: 'Globex', to: null });
      const starts = person.work_history.map((job: any) => job.from);
      expect([...starts].sort().reverse()).toEqual(starts);
    }
  });

  it('LinkScan rows are unstructured and still file recent movers under their previous employer', async () => {
    const response = await sandbox.call(
      'linkscan',
      'GET',
      '/v1/profiles' + query({ company: 'Globex', start: 0, count: 10 }),
    );
    expect(response.headers.get('x-credits-used')).toBe('1');
    expect(Object.keys(response.body.results[0]).sort()).toEqual(['link', 'snippet', 'title']);
    const initech = (
      await sandbox.call('pplgraph', 'POST', '/v1/people/search', {
        query: { job_company_name: ['Initech'] },
        size: 100,
      })
    ).body.data;
    const everyone = [];
    for (let start = 0; start < response.body.total; start += 10) {
      everyone.push(
        ...(await sandbox.call('linkscan', 'GET', '/v1/profiles' + query({ company: 'Globex', start }))).body.results,
      );
    }
    const movers = everyone.filter((row: any) => initech.some((p: any) => row.title.startsWith(p.full_name)));
    expect(movers.length).toBeGreaterThan(0);
    expect(movers.every((row: any) => row.snippet.endsWith('at Globex'))).toBe(true);
  });
});
