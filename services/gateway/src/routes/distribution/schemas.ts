import { publicSchemas } from '@rde/proto';
import { errorResponses, pathParam, pathParamsSchema } from '../../contract';

/** Errors of routes that fetch from an upstream (the release store, the package registry). */
export const upstreamErrors = errorResponses(502, 503, 504);

export const artifactParams = pathParamsSchema('cli_artifact', { examples: ['rde'] });

export const versionedArtifactParams = {
  type: 'object',
  properties: { version: pathParam({ examples: ['0.1.0'] }), cli_artifact: pathParam({ examples: ['rde'] }) },
  required: ['version', 'cli_artifact'],
} as const;

/** A download: bytes, not JSON. */
const binary = (description: string) =>
  ({ description, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }) as const;

export const artifactResponse = binary('the client as a Python zipapp: run it with python3 (3.9 or newer)');

export const installScriptResponse = {
  description: 'a POSIX shell script: `curl -fsSL <this URL> | sh`',
  content: { 'text/plain': { schema: { type: 'string' } } },
} as const;

const release = {
  type: 'object',
  properties: {
    version: { type: 'string' },
    sha256: { type: 'string', description: 'hex SHA-256 of the release asset' },
    download_url: { type: 'string', description: "this service's version-addressable path of the asset" },
  },
  required: ['version', 'sha256', 'download_url'],
} as const;

export const releasesSchema = {
  type: 'object',
  properties: {
    latest: { type: 'string' },
    min_cli_version: { type: 'string', description: 'clients older than this should self-update' },
    releases: { type: 'array', items: release, description: 'newest first' },
  },
  required: ['latest', 'min_cli_version', 'releases'],
} as const;

export const latestSchema = {
  type: 'object',
  properties: { ...release.properties, min_cli_version: releasesSchema.properties.min_cli_version },
  required: [...release.required, 'min_cli_version'],
} as const;

/** npm's name rule (within the router's bound on a path parameter); a scoped name arrives with its slash encoded. */
const packageName = pathParam({ pattern: publicSchemas.NPM_PACKAGE_NAME, examples: ['left-pad'] });

export const packageParams = {
  type: 'object',
  properties: { package_name: packageName },
  required: ['package_name'],
} as const;

export const tarballParams = {
  type: 'object',
  properties: {
    package_name: packageName,
    file: pathParam({ pattern: publicSchemas.NPM_TARBALL_FILE, examples: ['left-pad-1.3.0.tgz'] }),
  },
  required: ['package_name', 'file'],
} as const;

export const packumentResponse = {
  description: 'the registry document of the package, each version’s dist.tarball pointing at this service',
  type: 'object',
  additionalProperties: true,
} as const;

export const tarballResponse = binary('the package tarball, byte for byte as the registry publishes it');

const recipeRequest = {
  type: 'object',
  properties: {
    method: { type: 'string', enum: ['GET', 'POST'] },
    path: { type: 'string', description: '`{<saves_as>.<field>}` in it is that field of an earlier answer' },
    body: { type: 'object', additionalProperties: true },
    explains: { type: 'string' },
    auth: {
      type: 'string',
      enum: ['bearer', 'none'],
      description: '`none`: sent without a key (an inbound webhook: its URL is the secret)',
    },
    saves_as: { type: 'string', description: 'the name later paths give this answer' },
    repeat_until: {
      type: 'object',
      description: 'send it again until the answer’s `field` is one of `in` (a run read until it ends)',
      properties: { field: { type: 'string' }, in: { type: 'array', items: { type: 'string' } } },
      required: ['field', 'in'],
    },
  },
  required: ['method', 'path', 'explains', 'auth'],
} as const;

export const recipesSchema = {
  type: 'object',
  properties: {
    recipes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          title: { type: 'string' },
          summary: { type: 'string' },
          requests: { type: 'array', items: recipeRequest },
        },
        required: ['id', 'title', 'summary', 'requests'],
      },
    },
  },
  required: ['recipes'],
} as const;

export const referenceParams = pathParamsSchema('name', {
  examples: ['titles'],
  description: '`titles` or `occupations`',
});

export const referenceResponse = {
  description: 'the table as markdown, its source stated above it',
  content: { 'text/markdown': { schema: { type: 'string' } } },
} as const;

export const notModified = { description: 'the copy named by If-None-Match is current', type: 'null' } as const;

export const brandParams = pathParamsSchema('name', { examples: ['logo.svg'] });

export const brandResponse = {
  description: 'the asset',
  content: { 'image/svg+xml': { schema: { type: 'string' } } },
} as const;
