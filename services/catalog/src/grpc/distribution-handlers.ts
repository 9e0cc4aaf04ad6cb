import type { Handlers } from '@rde/platform';
import type { distribution } from '@rde/proto';
import type { CliReleases } from '../app/cli-releases';
import type { NpmProxy } from '../app/npm-proxy';
import type { Onboarding } from '../app/onboarding';

export interface DistributionHandlerDependencies {
  readonly releases: CliReleases;
  readonly npm: NpmProxy;
  readonly onboarding: Onboarding;
}

/** gRPC messages carry at most 4 MB; chunks well under it keep memory flat while streaming. */
const CHUNK_BYTES = 64 * 1024;

/** Translates the DistributionService RPCs to the releases, the npm proxy and the onboarding content. */
export function distributionHandlers(
  deps: DistributionHandlerDependencies,
): Handlers<typeof distribution.DistributionServiceService> {
  return {
    async listCliReleases() {
      const { latest, minCliVersion, releases } = deps.releases.list();
      return { latest, minCliVersion, releases: [...releases] };
    },

    async *getCliArtifact({ version }) {
      const bytes = await deps.releases.asset(version);
      for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
        yield { chunk: bytes.subarray(offset, offset + CHUNK_BYTES) };
      }
    },

    async getNpmPackument({ name, tarballBaseUrl }) {
      const packument = await deps.npm.packument(name, tarballBaseUrl);
      return { packumentJson: Buffer.from(JSON.stringify(packument)) };
    },

    async *getNpmTarball({ name, file }) {
      for await (const chunk of await deps.npm.tarball(name, file)) yield { chunk };
    },

    async listRecipes() {
      return {
        recipes: deps.onboarding.recipes().map((recipe) => ({
          ...recipe,
          requests: recipe.requests.map(({ method, path, body, explains, savesAs, noKey, repeatUntil }) => ({
            method,
            path,
            explains,
            bodyJson: body ? Buffer.from(JSON.stringify(body)) : Buffer.alloc(0),
            savesAs: savesAs ?? '',
            noKey: noKey ?? false,
            repeatUntilField: repeatUntil?.field ?? '',
            repeatUntilValues: [...(repeatUntil?.values ?? [])],
          })),
        })),
      };
    },

    async getReference({ name }) {
      return deps.onboarding.reference(name);
    },

    async getBrandAsset({ name }) {
      return deps.onboarding.brandAsset(name);
    },
  };
}
