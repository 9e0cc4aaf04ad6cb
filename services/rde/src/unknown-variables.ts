import { publicSchemas } from '@rde/proto';

/**
 * Variables of the scripts and tests around RDE (deploy/, test/, the README's first session): they
 * share a shell with `rde start` and reach it, so they are known though RDE never reads them.
 */
const TOOLING_PREFIXES = ['RDE_E2E_', 'RDE_LOCAL_', 'RDE_ST_', 'RDE_CONFORMANCE_', 'RDE_BACKENDS_'];
const TOOLING_VARIABLES = [
  'RDE_KEY',
  'RDE_TALLY_FILE',
  'RDE_REQUIRE_REAL_BACKENDS',
  'RDE_MODULES',
  'RDE_CACHE_DIR',
  'RDE_IMAGE',
  'RDE_NODE_IMAGE',
  'RDE_BREAKING_BASE',
  'RDE_MAILPIT_URL',
  'RDE_OIDC_ISSUER',
  'RDE_OIDC_GATEWAY_URL',
  // deploy/backends/<name>.sh
  ...['MONGO', 'KAFKA', 'KAFKA_CONTROLLER', 'REDIS', 'OIDC', 'MAILPIT_HTTP', 'MAILPIT_SMTP', 'STRIPE_MOCK'].map(
    (backend) => `RDE_${backend}_PORT`,
  ),
  'RDE_MONGO_HEAP',
  'RDE_KAFKA_HEAP',
  'RDE_KAFKA_VERSION',
  'RDE_STRIPE_MOCK_VERSION',
];

export interface UnknownVariable {
  readonly name: string;
  /** The known name it is most likely a misspelling of, when one is near enough. */
  readonly closest?: string;
}

/** The `RDE_*` variables set that neither RDE (`read`) nor its tooling knows, each with its closest known name. */
export function unknownVariables(variables: NodeJS.ProcessEnv, read: readonly string[]): UnknownVariable[] {
  const known = new Set([...read, ...TOOLING_VARIABLES]);
  return Object.keys(variables)
    .filter((name) => name.startsWith('RDE_') && !known.has(name))
    .filter((name) => !TOOLING_PREFIXES.some((prefix) => name.startsWith(prefix)))
    .map((name) => ({ name, closest: closestOf(name, [...known]) }));
}

/** A near name only: two edits, or one in six characters for long names; farther is another variable. */
function closestOf(name: string, known: string[]): string | undefined {
  const nearEnough = Math.max(2, Math.floor(name.length / 6));
  const scored = known
    .map((candidate) => ({ candidate, distance: publicSchemas.editDistance(name, candidate) }))
    .filter(({ distance }) => distance <= nearEnough)
    .sort((a, b) => a.distance - b.distance);
  return scored[0]?.candidate;
}
