import { checkPackageName, rewriteTarballs, versionOfTarball } from '../src/domain/distribution/npm';
import { parseReleaseRecord, publish } from '../src/domain/distribution/releases';
import { NpmProxy } from '../src/app/npm-proxy';

const hash = (digit: string) => digit.repeat(64);

describe('client releases', () => {
  const record = [
    { version: '0.9.0', sha256: hash('a') },
    { version: '0.10.0', sha256: hash('b') },
  ];

  it('publishes a new version as the newest, ordering by number, not text', () => {
    expect(publish(record, { version: '0.10.1', sha256: hash('c') }).map((r) => r.version)).toEqual([
      '0.10.1',
      '0.10.0',
      '0.9.0',
    ]);
  });

  it('accepts a recorded version with the same bytes, and refuses it with other bytes', () => {
    expect(publish(record, { version: '0.9.0', sha256: hash('a') })).toHaveLength(2);
    expect(() => publish(record, { version: '0.9.0', sha256: hash('f') })).toThrow(
      /0\.9\.0 is already released with SHA-256 a{64}; this build's is f{64}/,
    );
  });

  it('reads only a well-formed record', () => {
    expect(parseReleaseRecord(record)).toEqual(record);
    expect(() => parseReleaseRecord({})).toThrow(/JSON list/);
    expect(() => parseReleaseRecord([{ version: '1.0', sha256: hash('a') }])).toThrow(/entry 0: version/);
    expect(() => parseReleaseRecord([{ version: '1.0.0', sha256: 'ABC' }])).toThrow(/entry 0: sha256/);
    expect(() => parseReleaseRecord([...record, record[0]])).toThrow(/entry 2: 0\.9\.0 is recorded twice/);
  });
});

describe('npm proxy rules', () => {
  const allowlist = new Set(['left-pad', '@acme/tool']);

  it('tells malformed names from names not served', () => {
    expect(checkPackageName('left-pad', allowlist)).toBe('ok');
    expect(checkPackageName('@acme/tool', allowlist)).toBe('ok');
    expect(checkPackageName('right-pad', allowlist)).toBe('not_served');
    for (const name of ['Left-Pad', '@acme/../x', '../etc', '@acme', 'a b', 'x'.repeat(215)]) {
      expect({ name, check: checkPackageName(name, allowlist) }).toEqual({ name, check: 'malformed' });
    }
  });

  it('reads the version of a tarball file name only in npm’s shape', () => {
    expect(versionOfTarball('@acme/tool', 'tool-1.2.3.tgz')).toEqual({ version: '1.2.3' });
    expect(versionOfTarball('left-pad', 'left-pad-1.0.0-beta.1.tgz')).toEqual({ version: '1.0.0-beta.1' });
    expect(versionOfTarball('@acme/tool', 'other-1.2.3.tgz')).toBe('other_package');
    for (const file of ['tool-1.2.tgz', 'tool-1.2.3.tar', 'tool-../1.2.3.tgz']) {
      expect(versionOfTarball('@acme/tool', file)).toBe('malformed');
    }
  });

  it('rewrites only dist.tarball', () => {
    const dist = { tarball: 'http://upstream/@acme%2ftool/-/tool-1.0.0.tgz', shasum: 's', integrity: 'sha512-x' };
    const packument = { name: '@acme/tool', 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { dist } } };
    expect(rewriteTarballs(packument, '@acme/tool', 'https://rde.example/api/v2/npm')).toEqual({
      ...packument,
      versions: {
        '1.0.0': { dist: { ...dist, tarball: 'https://rde.example/api/v2/npm/@acme%2ftool/-/tool-1.0.0.tgz' } },
      },
    });
  });
});

describe('npm proxy without an upstream', () => {
  it('serves nothing, even a listed package, and names no registry of its own', async () => {
    const proxy = new NpmProxy(undefined, new Set(['left-pad']));
    await expect(proxy.packument('left-pad', 'http://rde.test/api/v2/npm')).rejects.toMatchObject({ httpStatus: 404 });
  });
});
