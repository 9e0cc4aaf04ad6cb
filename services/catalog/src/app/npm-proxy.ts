import { errors } from '@rde/platform';
import { checkPackageName, rewriteTarballs, versionOfTarball } from '../domain/distribution/npm';
import type { NpmRegistryClient } from '../clients/npm-registry';

/** The package-registry proxy: allowlisted packages only, everything checked before the upstream call. */
export class NpmProxy {
  constructor(
    private readonly registry: NpmRegistryClient,
    private readonly allowlist: ReadonlySet<string>,
  ) {}

  async packument(name: string, tarballBase: string): Promise<object> {
    this.served(name);
    return rewriteTarballs(await this.registry.packument(name), name, tarballBase);
  }

  async tarball(name: string, file: string): Promise<AsyncIterable<Buffer>> {
    this.served(name);
    const tarball = versionOfTarball(name, file);
    if (tarball === 'other_package') throw errors.notFound(`${file} is not a tarball of ${name}`);
    if (tarball === 'malformed')
      throw errors.badRequest({ detail: `${file} is not a ${name} tarball name (<name>-<version>.tgz)` });
    return this.registry.tarball(name, tarball.version);
  }

  private served(name: string): void {
    const check = checkPackageName(name, this.allowlist);
    if (check === 'malformed') throw errors.badRequest({ detail: `${JSON.stringify(name)} is not a package name` });
    if (check === 'not_served') throw errors.notFound(`${name} is not served here`);
  }
}
