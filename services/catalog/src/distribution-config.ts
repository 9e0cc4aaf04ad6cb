import { z } from 'zod';
import { env, loadConfig } from '@rde/platform';
import { RELEASE_VERSION } from './domain/distribution/releases';

/**
 * The distribution's variables. Every outbound URL (the release store, the package registry) is
 * configuration; nothing a caller sends ever becomes a host.
 */
export const DISTRIBUTION_VARIABLES = {
  /** The release record (a JSON list of {version, sha256}); unset: the one shipped with the client. */
  RDE_CLI_RELEASES_FILE: z.string().min(1).optional(),
  /** Base URL holding `v<version>/rde.pyz` of older releases; unset: only the shipped build is offered. */
  RDE_CLI_RELEASE_STORE_URL: env.url().optional(),
  /** Clients older than this are told to update. */
  RDE_CLI_MIN_VERSION: z.string().regex(RELEASE_VERSION, 'must be X.Y.Z').default('0.1.0'),
  /** The upstream package registry the npm proxy reads from; unset: the proxy serves nothing. */
  RDE_NPM_UPSTREAM_URL: env.url().optional(),
  /** The packages the npm proxy serves, comma-separated; unset: none. */
  RDE_NPM_PACKAGES: z
    .string()
    .default('')
    .transform(
      (text) =>
        new Set(
          text
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
        ),
    ),
  RDE_DISTRIBUTION_UPSTREAM_TIMEOUT_MS: env.milliseconds(20_000),
};

export function distributionConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(DISTRIBUTION_VARIABLES, variables);
}
