import { readFile } from 'node:fs/promises';
import { buildClientArchive, RELEASE_RECORD } from '@rde/client';
import { ReleaseStoreClient } from '../clients/release-store';
import { NpmRegistryClient } from '../clients/npm-registry';
import { distributionConfig } from '../distribution-config';
import { parseReleaseRecord, publish } from '../domain/distribution/releases';
import { CliReleases } from './cli-releases';
import { NpmProxy } from './npm-proxy';
import { Onboarding } from './onboarding';

/**
 * Everything the DistributionService serves, made at start: the client is built from its sources
 * (reproducibly, so every replica serves the same bytes) and published into the release record;
 * a recorded version with other bytes stops the start (releases are immutable).
 */
export async function openDistribution(variables: NodeJS.ProcessEnv) {
  const config = distributionConfig(variables);
  const timeoutMs = config.RDE_DISTRIBUTION_UPSTREAM_TIMEOUT_MS;
  const build = await buildClientArchive();
  const record = parseReleaseRecord(JSON.parse(await readFile(config.RDE_CLI_RELEASES_FILE ?? RELEASE_RECORD, 'utf8')));
  const store = config.RDE_CLI_RELEASE_STORE_URL;
  const npmUpstream = config.RDE_NPM_UPSTREAM_URL;
  return {
    releases: new CliReleases({
      releases: publish(record, build),
      latestBytes: build.bytes,
      minVersion: config.RDE_CLI_MIN_VERSION,
      store: store ? new ReleaseStoreClient(store, timeoutMs) : undefined,
    }),
    npm: new NpmProxy(npmUpstream ? new NpmRegistryClient(npmUpstream, timeoutMs) : undefined, config.RDE_NPM_PACKAGES),
    onboarding: await Onboarding.load(),
  };
}
