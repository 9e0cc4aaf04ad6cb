import { query, startSandbox, type Sandbox } from './harness';

/** Each test issues the query the README documents for its hard case, and checks what it shows. */

// Many HTTP round trips per test; CI machines may be busy.
jest.setTimeout(30_000);

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

interface PgProfile {
  full_name: string;
  first_name: string;
  last_name: string;
  linkedin_url: string;
  job_company_name: string;
  job_start_date: string | null;
  skills: string[];
  experience_years: number | null;
}

async function staffOf(company: string): Promise<PgProfile[]> {
  const { status, body } = await sandbox.call('pplgraph', 'POST', '/v1/people/search', {
    query: { job_company_name: [company] },
    size: 100,
  });
  expect(status).toBe(200);
  expect(body.data.length).toBeGreaterThan(0);
  return body.data;
}

/** The addresses MailFinder finds for these people at a company (by domain or name); misses left out. */
async function workEmails(staff: PgProfile[], at: { domain: string } | { company: string }): Promise<string[]> {
  const found = await Promise.all(
    staff.map((p) =>
      sandbox.call(
        'mailfinder',
        'GET',
        '/v1/email' + query({ first_name: p.first_name, last_name: p.last_name, ...at }),
      ),
    ),
  );
  return found.map((r) => r.body.data?.email).filter(Boolean);
}

async function webEmployers(body: Record<string, unknown>): Promise<string[]> {
  const response = await sandbox.call('webscout', 'POST', '/v2/search', body);
  expect(response.status).toBe(200);
  return response.body.people.map((p: { current: { employer: string } }) => p.current.employer);
}

describe('hard cases, by their documented queries', () => {
  it('whole-word prefix: a web search for "Acme Corp" also returns Acme Corporation staff; the database does not', async () => {
    const employers = new Set(await webEmployers({ company: 'Acme Corp' }));
    expect(employers).toEqual(new Set(['Acme Corp', 'Acme Corporation']));
    expect(new Set((await staffOf('Acme Corp')).map((p) => p.job_company_name))).toEqual(new Set(['Acme Corp']));
  });

  it('spelling variant: Acme Inc staff write their employer "ACME-Inc" on the web', async () => {
    const employers = new Set(await webEmployers({ company: 'Acme Inc' }));
    expect(employers).toEqual(new Set(['ACME-Inc']));
  });

  it('brand domain: acmelabs.com is Acme Labs, and a finder asked by company name answers on it', async () => {
    const [someone] = await sandbox
      .call('pplgraph', 'POST', '/v1/people/search', { query: { job_company_website: ['acmelabs.com'] }, size: 100 })
      .then((r) => r.body.data as PgProfile[]);
    expect(someone!.job_company_name).toBe('Acme Labs');
    const emails = await workEmails(await staffOf('Acme Labs'), { company: 'Acme Labs' });
    expect(emails.length).toBeGreaterThan(0);
    expect(emails.every((email: string) => email.endsWith('@acmelabs.com'))).toBe(true);
  });

  it('one-word company: a web search for "acme" also returns GoAcme (contains) and Acmetrics (starts with)', async () => {
    expect(await webEmployers({ company: 'acme' })).toEqual(expect.arrayContaining(['Acme', 'GoAcme', 'Acmetrics']));
  });

  it('changed employer: Initech staff joined from Globex this winter, and Reachout still returns their Globex address', async () => {
    const staff = await staffOf('Initech');
    expect(staff.every((p) => p.job_start_date === null || p.job_start_date >= '2025-11')).toBe(true);
    const emails = await Promise.all(staff.map((p) => lookupByReachout(p.linkedin_url)));
    const found = emails.filter((email): email is string => email !== null);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((email) => email.endsWith('@globex.com'))).toBe(true);
    const mailfinder = await sandbox.call(
      'mailfinder',
      'GET',
      '/v1/email' + query({ first_name: staff[0]!.first_name, last_name: staff[0]!.last_name, domain: 'globex.com' }),
    );
    expect(mailfinder.body.data).toBeNull();
  });

  it('personal email on the corporate domain: Persona returns @hooli.com addresses for Hooli staff', async () => {
    const staff = await staffOf('Hooli');
    const found = await Promise.all(
      staff.map((p) => sandbox.call('persona', 'POST', '/v1/person/emails', { linkedin_url: p.linkedin_url })),
    );
    const addresses = found.filter((r) => r.status === 200).map((r) => r.body.person.emails[0].address as string);
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((address) => address.endsWith('@hooli.com'))).toBe(true);
  });

  it('undeliverable: every Vandelay Industries address bounces, and so does a mover’s old address', async () => {
    const addresses = await workEmails(await staffOf('Vandelay Industries'), { domain: 'vandelay.com' });
    const movers = await staffOf('Initech');
    const stale = await Promise.all(
      movers.map((p) =>
        sandbox.call('homebase', 'GET', '/lookup' + query({ full_name: p.full_name, company: 'Initech' })),
      ),
    );
    const oldAddresses = stale.filter((r) => r.body.match).map((r) => r.body.email);
    expect(addresses.length).toBeGreaterThan(0);
    expect(oldAddresses.length).toBeGreaterThan(0);
    expect(oldAddresses.every((address: string) => address.endsWith('@globex.com'))).toBe(true);
    // A validator that could not reach the server says "unknown"; every one it reached bounced.
    const verdicts = await Promise.all([...addresses, ...oldAddresses].map(verdict));
    expect(new Set(verdicts.filter((v) => v !== 'unknown'))).toEqual(new Set(['undeliverable']));
  });

  it('no dated experience: Pied Piper profiles list jobs without dates at every enricher', async () => {
    const staff = await staffOf('Pied Piper');
    expect(staff.every((p) => p.job_start_date === null && p.experience_years === null)).toBe(true);
    const positions = (await profilesOf(staff)).flatMap((profile) => profile.positions);
    expect(positions.length).toBeGreaterThan(0);
    expect(positions.every((p: { starts_at: unknown }) => p.starts_at === null)).toBe(true);
  });

  it('title-only rows: Dunder Mifflin profiles have a title and employer and nothing else', async () => {
    const staff = await staffOf('Dunder Mifflin');
    expect(staff.every((p) => p.skills.length === 0 && p.experience_years === null)).toBe(true);
    const found = await profilesOf(staff);
    expect(found.length).toBeGreaterThan(0);
    for (const profile of found) expect(profile).toMatchObject({ positions: [], skills: [], education: [] });
  });

  it('someone else’s LinkedIn URL: Soylent rows carry a URL whose profile is another person', async () => {
    const staff = await staffOf('Soylent');
    const profiles = await Promise.all(
      staff.map((p) => sandbox.call('profilely', 'GET', '/v1/profile' + query({ url: p.linkedin_url }))),
    );
    const pairs = staff.map((p, i) => [p.full_name, profiles[i]!] as const).filter(([, r]) => r.status === 200);
    expect(pairs.length).toBeGreaterThan(0);
    for (const [name, response] of pairs) expect(response.body.full_name).not.toBe(name);
  });

  it('just outside the location: a San Francisco search at Golden Gate Analytics returns Oakland, San Mateo and San Jose too', async () => {
    const response = await sandbox.call('webscout', 'POST', '/v2/search', {
      company: 'Golden Gate Analytics',
      location: 'San Francisco',
    });
    const cities = new Set(response.body.people.map((p: { location: string }) => p.location.split(',')[0]));
    expect(cities).toContain('San Francisco');
    expect([...cities].some((city) => city !== 'San Francisco')).toBe(true);
    expect(
      [...cities].every((city) => ['San Francisco', 'Oakland', 'San Mateo', 'San Jose'].includes(city as string)),
    ).toBe(true);
  });
});

/** Profilely's profiles of these people, leaving out its occasional mix-ups with someone else. */
async function profilesOf(staff: PgProfile[]): Promise<any[]> {
  const responses = await Promise.all(
    staff.map((p) => sandbox.call('profilely', 'GET', '/v1/profile' + query({ url: p.linkedin_url }))),
  );
  return responses.filter((r, i) => r.status === 200 && r.body.full_name === staff[i]!.full_name).map((r) => r.body);
}

async function lookupByReachout(linkedinUrl: string): Promise<string | null> {
  const submitted = await sandbox.call('reachout', 'POST', '/v2/lookups', { linkedin_url: linkedinUrl });
  expect(submitted.status).toBe(202);
  const polled = await sandbox.call('reachout', 'GET', `/v2/lookups/${submitted.body.lookup_id}`);
  expect(polled.body.status).toBe('completed');
  return polled.body.email;
}

async function verdict(email: string): Promise<string> {
  return (await sandbox.call('verimail', 'POST', '/v3/verify', { email })).body.result;
}
