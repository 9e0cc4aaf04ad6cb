import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { OperationGroup } from './operation-docs';
import { integrations, signIn, webhooks } from './groups/access';
import { billing } from './groups/billing';
import { distribution } from './groups/distribution';
import { mcp } from './groups/mcp';
import { sessions } from './groups/sessions';
import { skills } from './groups/skills';
import { tools } from './groups/tools';
import { enrichment, qualify, runs, search } from './groups/waterfalls';
import { datasets, feedback, keys, meta } from './groups/workspace';
import { workflows } from './groups/workflows';
import { withLinks } from './links';

export { registerOperationDocs } from './operation-docs';

/** Every documented operation, by tag, in the order the spec's "Endpoints" section takes them. */
export const OPERATION_GROUPS: readonly OperationGroup[] = [
  tools,
  search,
  enrichment,
  runs,
  qualify,
  billing,
  keys,
  sessions,
  feedback,
  datasets,
  workflows,
  webhooks,
  skills,
  signIn,
  integrations,
  mcp,
  distribution,
  meta,
];

const TITLE = 'RDE — recruiting data engine';

const ABOUT = `RDE finds and enriches people for recruiting through third-party data providers, sold in credits:
you pay only for real hits. Every operation below names the rules of the interface specification it follows.

**Authentication**: \`Authorization: Bearer <API key>\` on every operation but the public ones. Mint keys with
POST /api/v2/keys; the all-in-one (\`./rde start\`) prints its dev owner key.

**Spending nothing while trying**: every paid operation takes \`dry_run: true\`, which answers what it would run
and \`_meta.would_charge_credits\` without charging; the examples here all carry it.`;

/** The document's header: what RDE is, how to authenticate, and the tags in spec order. */
export const DOCUMENT: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: { title: TITLE, version: '0.1.0', description: ABOUT },
    tags: OPERATION_GROUPS.map(({ tag, about }) => ({ name: tag, description: about })),
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
  },
  // Only the OpenAPI 3 document is built here; a Swagger 2 one would pass through untouched.
  transformObject: (built) => ('openapiObject' in built ? withLinks(built.openapiObject) : built.swaggerObject),
};

/** A text mark in place of the docs UI's own logo. */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="40" viewBox="0 0 96 40"><text x="0" y="31" font-family="Helvetica, Arial, sans-serif" font-size="30" font-weight="700" fill="#ffffff">RDE</text></svg>`;

/** /docs, branded as RDE. */
export const DOCS_UI: FastifySwaggerUiOptions = {
  routePrefix: '/docs',
  theme: { title: `${TITLE} — API` },
  logo: { type: 'image/svg+xml', content: LOGO, href: '/docs' },
  uiConfig: { docExpansion: 'list', tryItOutEnabled: false, displayRequestDuration: true },
};
