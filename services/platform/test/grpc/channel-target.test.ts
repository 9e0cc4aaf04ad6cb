import { channelTarget } from '../../src/grpc/client';

describe('channelTarget: where a client finds the replicas of a service', () => {
  it('keeps one address as it is: a name resolves to every replica (a headless Service)', () => {
    expect(channelTarget('billing:7102')).toBe('billing:7102');
    expect(channelTarget('127.0.0.1:7102')).toBe('127.0.0.1:7102');
  });

  it('turns a list of replicas into one target grpc-js balances over', () => {
    expect(channelTarget('127.0.0.1:7102, 127.0.0.1:7202')).toBe('ipv4:127.0.0.1:7102,127.0.0.1:7202');
    expect(channelTarget('[::1]:7102,[::1]:7202')).toBe('ipv6:[::1]:7102,[::1]:7202');
  });

  it('refuses a list of names or of mixed IP families at start, naming the address', () => {
    expect(() => channelTarget('billing-0:7102,billing-1:7102')).toThrow(
      /billing-0:7102,billing-1:7102: a list of replicas/,
    );
    expect(() => channelTarget('127.0.0.1:7102,[::1]:7102')).toThrow(/one IP family/);
  });
});
