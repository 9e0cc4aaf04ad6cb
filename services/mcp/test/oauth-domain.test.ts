import { createHash } from 'node:crypto';
import { redirectUriProblem, redirectUriRegistered, redirectWith, verifierMatches } from '../src/domain/oauth';

describe('redirect URI rules (RFC 6749 §3.1.2, RFC 8252 §7.3)', () => {
  test.each(['https://client.example/cb', 'http://127.0.0.1:5173/cb', 'http://localhost/cb', 'http://[::1]:80/cb'])(
    '%s is accepted',
    (uri) => expect(redirectUriProblem(uri)).toBeUndefined(),
  );

  test.each([
    ['http://client.example/cb', 'must use https, or http on a loopback host'],
    ['https://client.example/cb#x', 'must not contain a fragment'],
    ['https://user:pass@client.example/cb', 'must not carry credentials'],
    ['myapp://callback', 'must use https, or http on a loopback host'],
    ['cb', 'must be an absolute URL'],
  ])('%s is refused: %s', (uri, problem) => expect(redirectUriProblem(uri)).toBe(problem));

  test('a loopback redirect URI may name another port; anything else must match exactly', () => {
    const registered = ['http://127.0.0.1:9/callback', 'https://client.example/cb'];
    expect(redirectUriRegistered('http://127.0.0.1:53121/callback', registered)).toBe(true);
    expect(redirectUriRegistered('http://127.0.0.1:53121/other', registered)).toBe(false);
    expect(redirectUriRegistered('http://localhost:9/callback', registered)).toBe(false);
    expect(redirectUriRegistered('https://client.example/cb?x=1', registered)).toBe(false);
    expect(redirectUriRegistered('https://client.example:8443/cb', registered)).toBe(false);
  });

  test('response parameters are added to the redirect URI’s own query, empty ones left out', () => {
    expect(redirectWith('https://client.example/cb?keep=1', { code: 'c', state: '', iss: 'https://rde.example' })).toBe(
      'https://client.example/cb?keep=1&code=c&iss=https%3A%2F%2Frde.example',
    );
  });
});

describe('PKCE S256 (RFC 7636 §4.6)', () => {
  const verifier = 'a'.repeat(43);
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  test('the verifier whose SHA-256 is the challenge matches', () => {
    expect(verifierMatches(verifier, challenge)).toBe(true);
  });

  test('another verifier, the challenge itself (plain) or a malformed verifier does not', () => {
    expect(verifierMatches('b'.repeat(43), challenge)).toBe(false);
    expect(verifierMatches(challenge, challenge)).toBe(false);
    expect(verifierMatches('short', createHash('sha256').update('short').digest('base64url'))).toBe(false);
  });
});
