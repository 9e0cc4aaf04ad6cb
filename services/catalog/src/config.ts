import path from 'node:path';
import { z } from 'zod';
import { env, loadConfig } from '@rde/platform';
import type { ProviderDeclaration } from './providers/declaration';
import { DISTRIBUTION_VARIABLES } from './distribution-config';

/** The catalog's own variables, beside each vendor's. */
const CATALOG_VARIABLES = {
  RDE_PROVIDER_TIMEOUT_MS: env.milliseconds(20_000),
  RDE_PROVIDER_CONNECTIONS: z.coerce.number().int().min(1).default(64),
  RDE_CATALOG_HOLD_TTL_MS: env.milliseconds(15 * 60_000),
  /** The relay's safety-net poll: settlements are published right after their write. */
  RDE_CATALOG_OUTBOX_POLL_MS: env.milliseconds(2_000),
  /** How long a provider invocation's answer is replayed to a retry of the same invocation id. */
  RDE_CATALOG_INVOCATION_REPLAY_MS: env.milliseconds(15 * 60_000),
  RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
  /** The list price in cents per credit shown beside a method's credits (Starter's, rounded). */
  RDE_CATALOG_CENTS_PER_CREDIT: z.coerce.number().int().positive().default(10),
  /** RDE's own skill packages, one folder each (the repository's services/catalog/skills). */
  RDE_CATALOG_SKILLS_DIR: z.string().min(1).default(path.resolve(__dirname, '../skills')),
};

/** Each vendor's `RDE_<VENDOR>_API_KEY` and `RDE_<VENDOR>_BASE_URL`, both optional. */
function vendorVariables(providers: readonly ProviderDeclaration[]) {
  return Object.fromEntries(
    providers.flatMap((p) => [
      [apiKeyVariable(p), z.string().min(1).optional()],
      [baseUrlVariable(p), env.url().optional()],
    ]),
  );
}

/** Every variable the catalog reads (its module declares them: decision 0058). */
export function catalogVariables(providers: readonly ProviderDeclaration[]) {
  return { ...CATALOG_VARIABLES, ...DISTRIBUTION_VARIABLES, ...vendorVariables(providers) };
}

/**
 * The catalog's variables. Each vendor is configured by `RDE_<VENDOR>_BASE_URL` and
 * `RDE_<VENDOR>_API_KEY`; unset, they are the development defaults: the sandbox's imitation of the
 * vendor and its development key.
 */
export function catalogConfig(variables: NodeJS.ProcessEnv, providers: readonly ProviderDeclaration[]) {
  const common = loadConfig(CATALOG_VARIABLES, variables);
  const vendors = loadConfig(vendorVariables(providers), variables) as Record<string, string | undefined>;
  return {
    ...common,
    apiKeyOf: (provider: ProviderDeclaration) => vendors[apiKeyVariable(provider)] ?? provider.auth.sandboxKey,
    /** `sandboxUrl` is asked only for a vendor without a base URL of its own, when it is first called. */
    baseUrlOf: (provider: ProviderDeclaration, sandboxUrl: () => string) =>
      vendors[baseUrlVariable(provider)] ?? `${sandboxUrl().replace(/\/$/, '')}${provider.sandboxPath}`,
  };
}

export type CatalogConfig = ReturnType<typeof catalogConfig>;

function apiKeyVariable(provider: ProviderDeclaration): string {
  return `RDE_${provider.auth.credential.toUpperCase()}_API_KEY`;
}

function baseUrlVariable(provider: ProviderDeclaration): string {
  return `RDE_${provider.auth.credential.toUpperCase()}_BASE_URL`;
}
