import { isPublicAddress } from '../src/outbound';

describe('which addresses an outbound fetch of a user-given URL may reach (decision 0078)', () => {
  test.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('%s is public', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );

  test.each([
    ['loopback', '127.0.0.1'],
    ['loopback elsewhere in 127/8', '127.8.9.10'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.20.0.1'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local, the cloud metadata address', '169.254.169.254'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['unspecified', '0.0.0.0'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unique-local (a cloud metadata address)', 'fd00:ec2::254'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['not an address', 'example.com'],
  ])('%s (%s) is not', (_range, address) => expect(isPublicAddress(address)).toBe(false));
});
