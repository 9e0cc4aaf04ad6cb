import { errors } from '@rde/platform';
import { checkPackageName, rewriteTarballs, versionOfTarball } from '../domain/distribution/npm';
import type { NpmRegistryClient } from '../clients/npm-registry';

/**
 * The package-registry proxy: allowlisted packages only, everything checked before the upstream call.
 * Without a configured upstream it serves nothing (no registry is assumed).
 */
export class NpmProxy {
  private readonly allowlist: ReadonlySet<string>;

  constructor(
    private readonly registry: NpmRegistryClient | undefined,
    allowlist: ReadonlySet<string>,
  ) {
    this.allowlist = registry ? allowlist : new Set();
  }

  async packument(name: string, tarballBase: string): Promise<object> {
    const registry = this.served(name);
    return rewriteTarballs(await registry.packument(name), name, tarballBase);
  }

  async tarball(name: string, file: string): Promise<AsyncIterable<Buffer>> {
    const registry = this.served(name);
    const tarball = versionOfTarball(name, file);
    if (tarball === 'other_package') throw errors.notFound(`${file} is not a tarball of ${name}`);
    if (tarball === 'malformed')
      throw errors.badRequest({ detail: `${file} is not a ${name} tarball name (<name>-<version>.tgz)` });
    return registry.tarball(name, tarball.version);
  }

  /** The upstream to ask for `name`, once the name is well formed and served. */
  private served(name: string): NpmRegistryClient {
    const check = checkPackageName(name, this.allowlist);
    if (check === 'malformed') throw errors.badRequest({ detail: `${JSON.stringify(name)} is not a package name` });
    if (check === 'not_served' || !this.registry) throw errors.notFound(`${name} is not served here`);
    return this.registry;
  }
}
