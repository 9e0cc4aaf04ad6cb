import { addressOf } from '../src/admin';

describe('rde admin: where it reaches a module', () => {
  test('RDE_<MODULE>_ADDR when set, else the module’s default port on this machine', () => {
    expect(addressOf('auth', {})).toBe('127.0.0.1:7101');
    expect(addressOf('billing', {})).toBe('127.0.0.1:7102');
    expect(addressOf('billing', { RDE_BILLING_ADDR: '10.0.0.7:7102,10.0.0.8:7102' })).toBe(
      '10.0.0.7:7102,10.0.0.8:7102',
    );
    expect(addressOf('billing', { RDE_AUTH_ADDR: 'auth:7101' })).toBe('127.0.0.1:7102');
  });
});
