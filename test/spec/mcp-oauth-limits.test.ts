import { api, type ApiResponse } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { OAUTH, postForm, REDIRECT_URI } from '../e2e/mcp-oauth';

jest.setTimeout(120_000);

const LIMIT = 3;

/** RFC 6585 §4: whole seconds until the one-minute window frees, in the header and the body alike. */
function expectRetryAfter(refused: ApiResponse): void {
  const seconds = Number(refused.headers.get('retry-after'));
  expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60).toBe(true);
  expect(refused.body.retry_after).toBe(seconds);
}

describe(`MCP OAuth rate limits (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({
      RDE_MCP_OAUTH_REGISTER_PER_MINUTE: String(LIMIT),
      RDE_MCP_OAUTH_TOKEN_PER_MINUTE: String(LIMIT),
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('registration is rate-limited per address: past the limit, 429 and no client', async () => {
    const register = () =>
      api(rde, 'POST', `${OAUTH}/register`, { key: null, body: { redirect_uris: [REDIRECT_URI] } });
    const statuses = [];
    for (let attempt = 0; attempt <= LIMIT; attempt++) statuses.push((await register()).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(201), 429]);
    const refused = await register();
    expect(refused.body).toMatchObject({ error: 'rate_limited', detail: expect.any(String) });
    expect(refused.body.client_id).toBeUndefined();
    expectRetryAfter(refused);
  });

  test('the token endpoint is rate-limited per address: past the limit, 429 before any check', async () => {
    const exchange = () => postForm(rde, `${OAUTH}/token`, { grant_type: 'refresh_token', client_id: 'x' });
    const statuses = [];
    for (let attempt = 0; attempt <= LIMIT; attempt++) statuses.push((await exchange()).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(400), 429]);
    const refused = await exchange();
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.body).toMatchObject({ error: 'rate_limited' });
    expectRetryAfter(refused);
  });
});
