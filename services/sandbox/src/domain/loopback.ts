import { isIP } from 'node:net';

/**
 * Vendors POST job callbacks only to this machine: the sandbox must never become a way to send
 * traffic elsewhere, and the machines it runs on have no other network.
 */
export function isLoopbackUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.split('.')[0] === '127';
  return host === '::1';
}
