/** The command-line client's releases: immutable, version-addressable, each with its asset's SHA-256. */

export interface Release {
  readonly version: string;
  readonly sha256: string;
}

/** `X.Y.Z`, the only version shape a release has; anything else is no release and needs no lookup. */
export const RELEASE_VERSION = /^\d{1,6}\.\d{1,6}\.\d{1,6}$/;
const SHA256 = /^[0-9a-f]{64}$/;

export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (left[i] !== right[i]) return (left[i] ?? 0) - (right[i] ?? 0);
  return 0;
}

/** The release record (a JSON list of {version, sha256}), checked entry by entry. */
export function parseReleaseRecord(value: unknown): Release[] {
  if (!Array.isArray(value)) throw new Error('the release record must be a JSON list of {version, sha256}');
  const seen = new Set<string>();
  return value.map((entry: unknown, index) => {
    const { version, sha256 } = (entry ?? {}) as Record<string, unknown>;
    if (typeof version !== 'string' || !RELEASE_VERSION.test(version))
      throw new Error(`release record entry ${index}: version must be X.Y.Z`);
    if (typeof sha256 !== 'string' || !SHA256.test(sha256))
      throw new Error(`release record entry ${index}: sha256 must be 64 lowercase hex digits`);
    if (seen.has(version)) throw new Error(`release record entry ${index}: ${version} is recorded twice`);
    seen.add(version);
    return { version, sha256 };
  });
}

/**
 * Publishes the build into the record: a new version is added; a recorded version with the same
 * bytes is already published; a recorded version with other bytes is refused, since a release,
 * once out, never changes (bump the client's __version__ instead). Newest first.
 */
export function publish(record: readonly Release[], build: Release): Release[] {
  const recorded = record.find((release) => release.version === build.version);
  if (recorded && recorded.sha256 !== build.sha256) {
    throw new Error(
      `the client ${build.version} is already released with SHA-256 ${recorded.sha256}; ` +
        `this build's is ${build.sha256}: releases are immutable, so give the changed client a new __version__`,
    );
  }
  const releases = recorded ? [...record] : [...record, build];
  return releases.sort((a, b) => compareVersions(b.version, a.version));
}
