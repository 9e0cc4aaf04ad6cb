import ipaddr from 'ipaddr.js';

/**
 * Whether an address is on the public internet: ipaddr.js names every special range (private,
 * loopback, link-local with the cloud metadata address, unique-local, carrier-grade NAT, reserved,
 * multicast, …) and calls only the rest `unicast`. An IPv4-mapped IPv6 address is judged as IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The address a URL's host names literally (`10.0.0.1`, `[::1]`), or undefined for a DNS name. */
export function literalAddressOf(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(bare) ? bare : undefined;
}
