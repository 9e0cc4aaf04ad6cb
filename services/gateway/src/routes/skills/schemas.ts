/** JSON schemas of the skills routes: RDE's own skills (public) and a workspace's custom skills. */
import { pathParam, pathParamsSchema } from '../../contract';

export const SETUP_SKILL = 'rde';
export const SKILL_ENTRYPOINT = 'SKILL.md';

const text = (description: string, ...types: string[]) => ({
  description,
  content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' } }])),
});
export const markdownResponse = text('the setup skill as markdown', 'text/markdown');
/** Markdown files answer text/markdown, other files text/plain. */
export const fileResponse = text('the file as text', 'text/markdown', 'text/plain');
export const archiveResponse = {
  description: 'a deterministic gzip tarball',
  content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
} as const;
/** An If-None-Match that names the current ETag. */
export const notModified = { 304: { description: 'not modified: the ETag sent is current', type: 'null' } } as const;

const indexEntry = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    type: { type: 'string', const: 'archive' },
    description: { type: 'string' },
    url: { type: 'string', description: "the package's archive" },
    digest: { type: 'string', description: '`sha256:<hex>` of the archive bytes' },
    version: { type: 'string', description: "the archive's SHA-256 (hex): the package's content version" },
    base_url: { type: 'string', description: "where the package's files are served one by one" },
    files: { type: 'array', items: { type: 'string' } },
    entrypoint: { type: 'string' },
    documents: { type: 'array', items: { type: 'string' }, description: 'the markdown files besides the entrypoint' },
  },
  required: ['name', 'type', 'description', 'url', 'digest', 'version', 'base_url', 'files', 'entrypoint', 'documents'],
} as const;

export const indexSchema = {
  type: 'object',
  properties: {
    $schema: { type: 'string' },
    version: { type: 'string', description: "the catalog's SHA-256, as /api/v2/versions reports it" },
    skills: { type: 'array', items: indexEntry },
  },
  required: ['$schema', 'version', 'skills'],
} as const;

export const versionsSchema = {
  type: 'object',
  properties: {
    cli: {
      type: ['object', 'null'],
      description: 'the latest CLI release (as /api/v2/cli/releases lists it); null when none is published',
      properties: { version: { type: 'string' }, sha256: { type: 'string' }, min_cli_version: { type: 'string' } },
      required: ['version', 'sha256', 'min_cli_version'],
    },
    skills: {
      type: 'object',
      properties: { sha256: { type: 'string' }, count: { type: 'integer' } },
      required: ['sha256', 'count'],
    },
  },
  required: ['cli', 'skills'],
} as const;

export const fileParams = {
  type: 'object',
  properties: { name: pathParam(), '*': { type: 'string', maxLength: 1000 } },
  required: ['name'],
} as const;

export const archiveParams = pathParamsSchema('name');

const versionNumber = { type: ['integer', 'null'] } as const;
const iso = { type: 'string', format: 'date-time' } as const;

const skillEntryProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  scope: { type: 'string', enum: ['personal', 'org'] },
  description: { type: 'string' },
  author_user_id: { type: 'string' },
  live_version: versionNumber,
  latest_version: { type: 'integer' },
  pending_version: versionNumber,
  draft_by_other: { type: 'boolean' },
  created_at: iso,
  updated_at: iso,
} as const;

const skillEntry = {
  type: 'object',
  properties: skillEntryProperties,
  required: Object.keys(skillEntryProperties),
} as const;

const versionProperties = {
  version: { type: 'integer' },
  status: { type: 'string', enum: ['live', 'pending', 'rejected', 'superseded', 'withdrawn'] },
  author_user_id: { type: 'string' },
  created_at: iso,
  note: { type: 'string' },
} as const;

const skillFiles = {
  type: 'object',
  description: 'relative path → text content; `SKILL.md` with YAML frontmatter (name, description) at the root',
  additionalProperties: { type: 'string' },
} as const;

export const listSchema = {
  type: 'object',
  properties: { skills: { type: 'array', items: skillEntry }, trial_expires_at: { type: 'null' } },
  required: ['skills', 'trial_expires_at'],
} as const;

export const detailSchema = {
  type: 'object',
  properties: {
    ...skillEntryProperties,
    version: { type: 'object', properties: { ...versionProperties, files: skillFiles } },
    versions: { type: 'array', items: { type: 'object', properties: versionProperties } },
  },
  required: [...Object.keys(skillEntryProperties), 'version', 'versions'],
} as const;

export const saveResultSchema = {
  type: 'object',
  properties: {
    skill_id: { type: 'string' },
    name: { type: 'string' },
    scope: { type: 'string', enum: ['personal', 'org'] },
    version: { type: 'integer' },
    status: { type: 'string', enum: ['live', 'pending', 'rejected'] },
    changed: { type: 'boolean' },
  },
  required: ['skill_id', 'name', 'scope', 'version', 'status', 'changed'],
} as const;

/** A package is at most 1 MiB of text (decision 0064); JSON escaping may nearly double it. */
export const PACKAGE_BODY_LIMIT_BYTES = 3 * 1024 * 1024;

export const createBody = {
  type: 'object',
  properties: { scope: { type: 'string', enum: ['personal', 'org'] }, files: skillFiles },
  required: ['scope', 'files'],
  additionalProperties: false,
} as const;

export const saveBody = {
  type: 'object',
  properties: { files: skillFiles },
  required: ['files'],
  additionalProperties: false,
} as const;

export const reviewBody = {
  type: ['object', 'null'],
  properties: { note: { type: 'string', maxLength: 2000 } },
  additionalProperties: false,
} as const;

export const skillParams = pathParamsSchema('skill_id');

export const versionParams = {
  type: 'object',
  properties: { skill_id: pathParam(), version: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
  required: ['skill_id', 'version'],
} as const;

export const versionQuery = {
  type: 'object',
  properties: { version: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;
