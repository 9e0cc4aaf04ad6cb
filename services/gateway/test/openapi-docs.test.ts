import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { OPERATION_GROUPS } from '../src/openapi';
import { gatewayOver } from './support';

/**
 * The document a newcomer reads (decision 0053): every operation summarised, tagged as the spec
 * groups it and pointed at its rules, each example valid against the schema it illustrates.
 */
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; schema: object; example?: unknown }[];
  requestBody?: { content: Record<string, { schema: object; example?: unknown }> };
  responses?: Record<string, { links?: Record<string, { operationRef: string; parameters?: Record<string, string> }> }>;
}

interface Document {
  info: { title: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
}

let document: Document;
let docsPage: string;
let list: { name: string; operation: Operation }[];

beforeAll(async () => {
  const app = await gatewayOver({});
  document = (await app.inject({ url: '/openapi.json' })).json() as Document;
  docsPage = (await app.inject({ url: '/docs' })).body;
  await app.close();
  list = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
});

const TAGS = OPERATION_GROUPS.map(({ tag }) => tag);

test('every operation has a summary, one tag of the spec groups and a description opening with its spec rules', async () => {
  expect(list.length).toBeGreaterThan(90);
  const undocumented = list
    .filter(
      ({ operation }) =>
        !operation.summary ||
        operation.tags?.length !== 1 ||
        !TAGS.includes(operation.tags[0]) ||
        !/^Spec: .+\.\n\n\S/.test(operation.description ?? ''),
    )
    .map(({ name }) => name);
  expect(undocumented).toEqual([]);
});

test('/docs and the document introduce RDE, not the docs tool', () => {
  expect(docsPage).toContain('<title>RDE — recruiting data engine');
  expect(document.info.title).toBe('RDE — recruiting data engine');
  expect(document.info.description).toMatch(/dry_run: true/);
});

test('every documented operation exists: no entry outlives its route', async () => {
  const names = new Set(list.map(({ name }) => name));
  const stale = OPERATION_GROUPS.flatMap(({ operations }) => Object.keys(operations)).filter((key) => !names.has(key));
  expect(stale).toEqual([]);
});

test('the tags are listed in spec order, each with what it groups', async () => {
  expect(document.tags.map(({ name }) => name)).toEqual(TAGS);
  for (const { description } of document.tags) expect(description).toMatch(/\S/);
});

test('every example is valid against the schema it illustrates, and paid ones are dry runs', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const invalid: string[] = [];
  let examples = 0;
  for (const { name, operation } of list) {
    const body = operation.requestBody?.content['application/json'];
    const checked = [
      ...(body?.example === undefined ? [] : [{ where: 'body', schema: body.schema, example: body.example }]),
      ...(operation.parameters ?? [])
        .filter((parameter) => parameter.example !== undefined)
        .map((parameter) => ({ where: parameter.name, schema: parameter.schema, example: parameter.example })),
    ];
    for (const { where, schema, example } of checked) {
      examples++;
      if (!ajv.validate(schema, example)) invalid.push(`${name} ${where}: ${ajv.errorsText()}`);
    }
    const paid = body?.schema && 'properties' in body.schema && 'dry_run' in (body.schema.properties as object);
    if (paid && body.example !== undefined && (body.example as { dry_run?: boolean }).dry_run !== true) {
      invalid.push(`${name}: a paid example without dry_run: true`);
    }
  }
  expect(invalid).toEqual([]);
  expect(examples).toBeGreaterThan(40);
});

/** The operation a link's `#/paths/~1a~1{b}/get` points at, as `GET /a/{b}`. */
const linkTarget = (ref: string) => {
  const [, path, method] = /^#\/paths\/(.+)\/([a-z]+)$/.exec(ref)!;
  return `${method!.toUpperCase()} ${path!.replace(/~1/g, '/').replace(/~0/g, '~')}`;
};

test('links lead from what creates a dataset, run, session, job or client to the operations that use it', () => {
  const linked = list.flatMap(({ name, operation }) =>
    Object.entries(operation.responses ?? {}).flatMap(([status, response]) =>
      Object.values(response.links ?? {}).map((link) => ({ from: `${name} ${status}`, link })),
    ),
  );
  const edges = linked.map(({ from, link }) => `${from} -> ${linkTarget(link.operationRef)}`);
  expect(edges).toEqual(
    expect.arrayContaining([
      'POST /api/v2/datasets 201 -> GET /api/v2/datasets/{ds_id}/rows',
      'POST /api/v2/datasets 201 -> GET /api/v2/datasets/{ds_id}/csv',
      'POST /api/v2/datasets 201 -> POST /api/v2/datasets/{ds_id}/rows',
      'POST /enrich/run 200 -> GET /enrich/runs/{run_id}',
      'POST /enrich/run 200 -> POST /enrich/runs/{run_id}/cancel',
      'POST /session/start 200 -> GET /session/{sid}',
      'POST /session/start 200 -> POST /session/{sid}/end',
      'POST /enrich/{capability} 200 -> GET /enrich/jobs/{provider}/{job_id}',
      'POST /api/v2/mcp/oauth/register 201 -> POST /api/v2/mcp/oauth/token',
    ]),
  );
  // Every link reaches an operation of the document, and fills only path parameters it declares.
  const operations = new Map(list.map(({ name, operation }) => [name, operation]));
  for (const { link } of linked) {
    const target = operations.get(linkTarget(link.operationRef));
    expect(target).toBeDefined();
    const pathParameters = (target!.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
    expect(pathParameters).toEqual(expect.arrayContaining(Object.keys(link.parameters ?? {})));
  }
});
