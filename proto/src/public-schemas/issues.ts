/**
 * Schema validators' raw issues turned into problems a client can act on (decision 0052): one line
 * per problem, the unknown property named with a "did you mean", enum values listed, and the noise
 * of `anyOf`/`oneOf` (every branch's failure) reduced to the branch that came closest or to one
 * line summarising what would have been accepted.
 */

/** A schema validator's issue (ajv's shape; this package does not depend on ajv). */
export interface SchemaIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: object;
  message?: string;
}

/** One problem: where (path inside the validated value), what (`msg`), and its kind (`type`). */
export interface Problem {
  path: (string | number)[];
  msg: string;
  type: string;
}

type Schema = Record<string, unknown>;

/** How many allowed property names a message lists before it stops. */
const LISTED_NAMES = 12;

/** `schema` is the root schema the issues were raised against: it names the properties that exist. */
export function describeIssues(issues: readonly SchemaIssue[], schema: object = {}): Problem[] {
  const problems = collapseAlternatives(issues, schema as Schema).map((issue) =>
    issue.problem ? issue.problem : describe(issue, schema as Schema),
  );
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = JSON.stringify(problem);
    return !seen.has(key) && seen.add(key);
  });
}

/** An issue, or a problem already worded (the summary of a failed `anyOf`/`oneOf`). */
type Pending = SchemaIssue & { problem?: Problem };

/**
 * Replaces each failed `anyOf`/`oneOf` and its branches' issues, innermost first, by the issues of
 * the branch that got furthest (it failed deeper inside the value), or by one summarising line when
 * every branch failed at the value itself (it matched none of the shapes).
 */
function collapseAlternatives(issues: readonly SchemaIssue[], schema: Schema): Pending[] {
  let pending: Pending[] = [...issues];
  const alternatives = issues
    .filter(({ keyword }) => keyword === 'anyOf' || keyword === 'oneOf')
    .sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const alternative of alternatives) {
    const prefix = `${alternative.schemaPath}/`;
    const branches = pending.filter(({ schemaPath }) => schemaPath.startsWith(prefix));
    const rest = pending.filter((issue) => issue !== alternative && !branches.includes(issue));
    pending = [...rest, ...resolveAlternative(alternative, branches, schema)];
  }
  return pending;
}

function resolveAlternative(alternative: SchemaIssue, branches: Pending[], schema: Schema): Pending[] {
  const options = (schemaAt(schema, alternative.schemaPath) as Schema[] | undefined) ?? [];
  const requiredGroups = options.length > 0 && options.every(isRequiredGroup);
  if ((alternative.params as { passingSchemas?: number[] | null }).passingSchemas) {
    const msg = requiredGroups ? `must have only one of: ${listGroups(options)}` : 'must match only one alternative';
    return [summary(alternative, msg, 'oneOf')];
  }
  if (requiredGroups) {
    const count = alternative.keyword === 'oneOf' ? 'exactly' : 'at least';
    return [summary(alternative, `must have ${count} one of: ${listGroups(options)}`, 'missing')];
  }
  const closest = branches.filter((issue) => reachOf(issue) > pathOf(alternative.instancePath).length);
  if (closest.length > 0) return branchOf(closest, alternative.schemaPath);
  const shapes = uniqueJoin(branches.map(acceptedShape));
  return [summary(alternative, shapes ? `must be ${shapes}` : (alternative.message ?? 'invalid'), alternative.keyword)];
}

/** The issues of the one branch that reached deepest (ties: the one with the fewest issues). */
function branchOf(issues: Pending[], alternativePath: string): Pending[] {
  const byBranch = new Map<string, Pending[]>();
  for (const issue of issues) {
    const branch = issue.schemaPath.slice(alternativePath.length + 1).split('/')[0];
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), issue]);
  }
  const reach = (group: Pending[]) => Math.max(...group.map(reachOf));
  return [...byBranch.values()].sort((a, b) => reach(b) - reach(a) || a.length - b.length)[0];
}

/** How deep into the value a branch got before failing: a property's problem is one level below its object. */
function reachOf(issue: Pending): number {
  const aboutProperty = issue.keyword === 'additionalProperties' || issue.keyword === 'required';
  return pathOf(issue.instancePath).length + (aboutProperty ? 1 : 0);
}

/** The alternative worded as one problem; it keeps its place, so an enclosing alternative still finds it. */
function summary(alternative: SchemaIssue, msg: string, type: string): Pending {
  return { ...alternative, problem: { path: pathOf(alternative.instancePath), msg, type } };
}

function isRequiredGroup(option: Schema): boolean {
  return Array.isArray(option.required) && Object.keys(option).length === 1;
}

/** Alternatives that each require properties, by those properties: `'input', 'input_rows'`. */
function listGroups(options: Schema[]): string {
  return options.map((option) => quoted(option.required as string[])).join(', ');
}

/** What one failed branch would have accepted, in words. */
function acceptedShape(issue: Pending): string {
  if (issue.problem) return issue.problem.msg.replace(/^must be /, '');
  const params = issue.params as Record<string, unknown>;
  if (issue.keyword === 'enum') return `one of: ${valuesOf(params.allowedValues)}`;
  if (issue.keyword === 'const') return JSON.stringify(params.allowedValue);
  if (issue.keyword === 'type') return withArticle(String(params.type));
  if (issue.keyword === 'pattern') return `a string matching ${String(params.pattern)}`;
  return (issue.message ?? 'valid').replace(/^must (be )?/, '');
}

function uniqueJoin(parts: string[]): string {
  return [...new Set(parts)].join('; or ');
}

/** One issue as a problem, worded for a client. */
function describe(issue: SchemaIssue, schema: Schema): Problem {
  const path = pathOf(issue.instancePath);
  const params = issue.params as Record<string, unknown>;
  switch (issue.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const msg = `unknown property '${name}'${unknownPropertyHint(name, path, issue.schemaPath, schema)}`;
      return { path: [...path, name], msg, type: 'extra_forbidden' };
    }
    case 'required': {
      const name = String(params.missingProperty);
      return { path: [...path, name], msg: `missing required property '${name}'`, type: 'missing' };
    }
    case 'enum':
      return { path, msg: `must be one of: ${valuesOf(params.allowedValues)}`, type: 'enum' };
    case 'type':
      return { path, msg: issue.message ?? 'wrong type', type: `${String(params.type)}_type` };
    default:
      return { path, msg: issue.message ?? 'invalid', type: issue.keyword };
  }
}

/**
 * "did you mean" a declared property the unknown name is an alias or a typo of: a sibling first (at
 * the value's own location, `query.job_title`), else any property of the schema (`payload.query`);
 * with no such property, the names allowed where it was sent.
 */
function unknownPropertyHint(name: string, path: (string | number)[], schemaPath: string, schema: Schema): string {
  const parent = schemaAt(schema, schemaPath.split('/').slice(0, -1).join('/')) as Schema | undefined;
  const siblings = Object.keys((parent?.properties as Schema | undefined) ?? {});
  const sibling = closestProperty(name, siblings);
  const suggestion = sibling ? locationOf([...path, sibling]) : closestProperty(name, propertyPaths(schema));
  if (suggestion) return `; did you mean '${suggestion}'?`;
  return siblings.length === 0 || siblings.length > LISTED_NAMES ? '' : `; allowed: ${siblings.join(', ')}`;
}

/** A location in the value as a client writes it: `steps[0].args`. */
function locationOf(path: (string | number)[]): string {
  return path
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
}

/** Every property the schema declares, as a path from its root (`query.job_title`, `steps[].args`). */
function propertyPaths(schema: unknown, prefix = ''): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Schema;
  const own = Object.entries((node.properties as Schema | undefined) ?? {}).flatMap(([name, child]) => [
    `${prefix}${name}`,
    ...propertyPaths(child, `${prefix}${name}.`),
  ]);
  const items = propertyPaths(node.items, prefix.replace(/\.$/, '[].'));
  const alternatives = ['anyOf', 'oneOf', 'allOf'].flatMap((key) =>
    [node[key]].flat().flatMap((child) => propertyPaths(child, prefix)),
  );
  return [...new Set([...own, ...items, ...alternatives])];
}

/**
 * The declared property a name stands for: one of its aliases (the name itself, its words from the
 * last, singular or plural, any spelling: `titles` for `job_title`) or, failing that, a near typo.
 */
function closestProperty(name: string, paths: string[]): string | undefined {
  const wanted = normalized(name);
  const byAlias = paths.find((path) => aliasesOf(lastName(path)).includes(wanted));
  if (byAlias) return byAlias;
  const scored = paths
    .map((path) => ({ path, distance: editDistance(wanted, normalized(lastName(path))) }))
    .filter(({ distance }) => distance <= Math.max(1, Math.floor(wanted.length / 4)))
    .sort((a, b) => a.distance - b.distance);
  return scored[0]?.path;
}

function lastName(path: string): string {
  return path.slice(path.search(/[^.\]]+$/));
}

/** `job_company_name` → `jobcompanyname`, `companyname`, `name`: the words from the last, normalized. */
function aliasesOf(name: string): string[] {
  const words = name.split(/[_-]/).filter(Boolean);
  return words.map((_, start) => normalized(words.slice(start).join('')));
}

/** Case, separators and a plural `s` do not tell names apart. */
function normalized(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/(?<=.)s$/, '');
}

/** Levenshtein distance, with an adjacent swap counted as one edit (also `rde start`'s unknown-variable hint). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}

/** The schema a validator's `schemaPath` (`#/properties/query/anyOf`) points at, when it is inside this one. */
function schemaAt(schema: Schema, schemaPath: string): unknown {
  return pointerParts(schemaPath.replace(/^#/, '')).reduce<unknown>(
    (node, part) => (node && typeof node === 'object' ? (node as Schema)[part] : undefined),
    schema,
  );
}

function pathOf(instancePath: string): (string | number)[] {
  return pointerParts(instancePath).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** A JSON pointer's parts, unescaped. */
function pointerParts(pointer: string): string[] {
  return pointer
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valuesOf(values: unknown): string {
  return (Array.isArray(values) ? values : []).map((value) => String(value)).join(', ');
}

function quoted(names: string[]): string {
  return names.map((name) => `'${name}'`).join(' + ');
}

function withArticle(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}
