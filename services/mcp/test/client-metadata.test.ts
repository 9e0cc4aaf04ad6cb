import { documentClientOf, isMetadataDocumentUrl } from '../src/domain/client-metadata';

const URL_ID = 'https://agent.example/oauth/client.json';
const document = (extra: Record<string, unknown> = {}) => ({
  client_id: URL_ID,
  client_name: 'Agent',
  redirect_uris: ['http://127.0.0.1:3334/callback'],
  ...extra,
});

describe('client ID metadata document URLs (decision 0078)', () => {
  test.each([URL_ID, 'https://agent.example/client?v=1'])('%s is one', (id) =>
    expect(isMetadataDocumentUrl(id, false)).toBe(true),
  );

  test.each([
    ['a registered id', 'mcp_client_abc'],
    ['plain http', 'http://agent.example/client.json'],
    ['no path', 'https://agent.example/'],
    ['a fragment', 'https://agent.example/client.json#x'],
    ['credentials', 'https://user:pw@agent.example/client.json'],
    ['a dot segment', 'https://agent.example/a/../client.json'],
  ])('%s is not', (_case, id) => expect(isMetadataDocumentUrl(id, false)).toBe(false));

  test('http on 127.0.0.1 is one only under the test setting, and no other http host', () => {
    expect(isMetadataDocumentUrl('http://127.0.0.1:8000/client.json', false)).toBe(false);
    expect(isMetadataDocumentUrl('http://127.0.0.1:8000/client.json', true)).toBe(true);
    expect(isMetadataDocumentUrl('http://localhost:8000/client.json', true)).toBe(false);
  });
});

describe('a fetched metadata document (decision 0078)', () => {
  test('a public client with valid metadata is the client it describes', () => {
    expect(documentClientOf(URL_ID, document())).toEqual({
      client_name: 'Agent',
      client_uri: '',
      redirect_uris: ['http://127.0.0.1:3334/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
    });
  });

  test.each([
    ['an array', [], /not a JSON object/],
    ['another client_id', document({ client_id: 'https://other.example/client.json' }), /another client_id/],
    ['a secret', document({ client_secret: 'x' }), /secret/],
    ['secret authentication', document({ token_endpoint_auth_method: 'client_secret_basic' }), /none/],
    ['no redirect URIs', document({ redirect_uris: [] }), /redirect_uris/],
    ['a plain http redirect URI', document({ redirect_uris: ['http://agent.example/cb'] }), /redirect URI/],
    ['another scope', document({ scope: 'admin' }), /scope/],
  ])('%s is refused', (_case, json, reason) => expect(() => documentClientOf(URL_ID, json)).toThrow(reason));
});
