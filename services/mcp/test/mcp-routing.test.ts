import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { claimsModernEnvelope } from '../src/app/mcp-handler';

const ENVELOPE = {
  [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = (params: object) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
const request = (method = 'POST') =>
  new Request('http://127.0.0.1/api/v2/mcp', {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });

/**
 * The endpoint skips the SDK's era predicate only for bodies the SDK itself routes modern (decision
 * 0038); these are held against the SDK's `isLegacyRequest`, so an SDK upgrade that changes its rules
 * fails here rather than in a client.
 */
describe('the shortcut past isLegacyRequest agrees with the SDK', () => {
  test.each([
    ['a 2026-07-28 tools/call', call({ name: 'list_tools', _meta: ENVELOPE })],
    [
      'a claim naming an unserved revision',
      call({ name: 'list_tools', _meta: { ...ENVELOPE, [PROTOCOL_VERSION_META_KEY]: '2099-01-01' } }),
    ],
    [
      'a claim with an incomplete envelope',
      call({ name: 'list_tools', _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } }),
    ],
    ['a notification with a claim', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: ENVELOPE } }],
  ])('%s takes the modern entry directly, as the SDK routes it', async (_name, body) => {
    expect(claimsModernEnvelope(request(), body)).toBe(true);
    expect(await isLegacyRequest(request(), body)).toBe(false);
  });

  test.each([
    ['a 2025-era tools/call', call({ name: 'list_tools' })],
    [
      'an initialize with an incomplete claim',
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } } },
    ],
    ['a posted response', { jsonrpc: '2.0', id: 1, result: {}, params: { _meta: ENVELOPE } }],
    ['a batch', [call({ name: 'list_tools', _meta: ENVELOPE })]],
  ])('%s is left to the SDK to classify', (_name, body) => {
    expect(claimsModernEnvelope(request(), body)).toBe(false);
  });

  test('a request other than POST is left to the SDK to classify, whatever its body', () => {
    expect(claimsModernEnvelope(request('PUT'), call({ name: 'list_tools', _meta: ENVELOPE }))).toBe(false);
  });

  test('an initialize with an incomplete claim is 2025-era, which is why the shortcut leaves initialize alone', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } },
    };
    expect(await isLegacyRequest(request(), body)).toBe(true);
  });
});
