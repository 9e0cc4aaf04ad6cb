import { createHash } from 'node:crypto';
import { errors, httpError } from '@rde/platform';
import { RELEASE_VERSION, type Release } from '../domain/distribution/releases';
import type { ReleaseStoreClient } from '../clients/release-store';

export interface CliReleasesOptions {
  /** Newest first; the first is the build this service ships. */
  readonly releases: readonly Release[];
  readonly latestBytes: Buffer;
  readonly minVersion: string;
  /** Unset: only the shipped build is offered. */
  readonly store?: ReleaseStoreClient;
}

/** Listing releases and handing out one's bytes, checked against the recorded SHA-256. */
export class CliReleases {
  private readonly offered: readonly Release[];

  constructor(private readonly options: CliReleasesOptions) {
    this.offered = options.store ? options.releases : options.releases.slice(0, 1);
  }

  list(): { latest: string; minCliVersion: string; releases: readonly Release[] } {
    return { latest: this.latest.version, minCliVersion: this.options.minVersion, releases: this.offered };
  }

  /** '' is the latest. An unknown version is 404 before the store is asked anything. */
  async asset(version: string): Promise<Buffer> {
    const release = version === '' ? this.latest : this.find(version);
    if (!release) throw errors.notFound(`no release ${version} of the rde client`);
    if (release === this.latest) return this.options.latestBytes;
    const bytes = await this.options.store!.asset(release.version);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== release.sha256) {
      throw httpError(502, {
        detail: `the release store's ${release.version} does not match its recorded SHA-256; nothing was served`,
      });
    }
    return bytes;
  }

  private get latest(): Release {
    return this.offered[0]!;
  }

  private find(version: string): Release | undefined {
    return RELEASE_VERSION.test(version) ? this.offered.find((release) => release.version === version) : undefined;
  }
}
