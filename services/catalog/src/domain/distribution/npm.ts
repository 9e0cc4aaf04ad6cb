import { publicSchemas } from '@rde/proto';

/** The package-registry proxy's rules: which names and versions exist to ask for, and the rewrite. */

const PACKAGE_NAME = new RegExp(publicSchemas.NPM_PACKAGE_NAME);
const VERSION = new RegExp(`^${publicSchemas.NPM_VERSION}$`);

export type NameCheck = 'ok' | 'malformed' | 'not_served';

export function checkPackageName(name: string, allowlist: ReadonlySet<string>): NameCheck {
  if (name.length > publicSchemas.NPM_NAME_MAX_LENGTH || !PACKAGE_NAME.test(name)) return 'malformed';
  return allowlist.has(name) ? 'ok' : 'not_served';
}

export type TarballCheck = { readonly version: string } | 'other_package' | 'malformed';

/** The version in a tarball file name `<unscoped name>-<version>.tgz`; a file of another package is not this one's. */
export function versionOfTarball(name: string, file: string): TarballCheck {
  const prefix = `${unscoped(name)}-`;
  if (!file.startsWith(prefix)) return 'other_package';
  const version = file.endsWith('.tgz') ? file.slice(prefix.length, -'.tgz'.length) : '';
  return VERSION.test(version) ? { version } : 'malformed';
}

/** The registry's path segment for a name: a scope's slash is encoded, as npm clients send it. */
export function encodedName(name: string): string {
  return name.replace('/', '%2f');
}

/** Where a version's tarball lives under a registry base: npm's layout, `<name>/-/<unscoped>-<version>.tgz`. */
export function tarballUrl(base: string, name: string, version: string): string {
  return `${base.replace(/\/$/, '')}/${encodedName(name)}/-/${unscoped(name)}-${version}.tgz`;
}

/**
 * The packument with every version's `dist.tarball` pointing at `tarballBase`; `shasum`,
 * `integrity`, `dist-tags` and everything else stay as the registry sent them.
 */
export function rewriteTarballs(packument: Record<string, unknown>, name: string, tarballBase: string): object {
  const versions = packument.versions;
  if (!versions || typeof versions !== 'object') return packument;
  const rewritten = Object.fromEntries(
    Object.entries(versions as Record<string, Record<string, unknown>>).map(([version, manifest]) => {
      const dist = manifest?.dist as Record<string, unknown> | undefined;
      if (!dist || !VERSION.test(version)) return [version, manifest];
      return [version, { ...manifest, dist: { ...dist, tarball: tarballUrl(tarballBase, name, version) } }];
    }),
  );
  return { ...packument, versions: rewritten };
}

function unscoped(name: string): string {
  return name.slice(name.indexOf('/') + 1);
}
