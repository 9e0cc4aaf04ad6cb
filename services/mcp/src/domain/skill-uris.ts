/**
 * Skill resources' URIs (the MCP Skills extension's `skill://` scheme, decision 0080):
 * `skill://rde/<name>/<path>` for RDE's own public packages, `skill://workspace/<name>/<path>` for
 * the caller's workspace's custom skills (one workspace per connection, and names are unique in it).
 */
export type SkillOrigin = 'rde' | 'workspace';

/** Every skill URI starts with it. */
export const SKILLS_BASE_URI = 'skill://';

/** One file of one served skill, as a URI names it. */
export interface SkillFileAddress {
  readonly origin: SkillOrigin;
  readonly name: string;
  /** Relative to the skill's root, `/`-separated, each segment decoded. */
  readonly path: string;
}

const ORIGINS: readonly string[] = ['rde', 'workspace'] satisfies SkillOrigin[];
export const MANIFEST = 'SKILL.md';

/** The skill's folder below the base URI, as the SDK's entry builder takes it. */
export const skillFolderOf = (origin: SkillOrigin, name: string) => `${origin}/${name}`;

/** The URI of a skill's `SKILL.md`: the skill's own URI. */
export const manifestUriOf = (origin: SkillOrigin, name: string) =>
  `${SKILLS_BASE_URI}${skillFolderOf(origin, name)}/${MANIFEST}`;

/**
 * The file a URI names, or undefined when it names none: another scheme or origin, a query, no file
 * below the skill's folder, or a segment that decodes to nothing, `.`, `..` or holds `/` or NUL.
 * The path is only ever looked up in a skill's file list, never joined into a file-system path.
 */
export function skillFileAt(uri: string): SkillFileAddress | undefined {
  const url = parsed(uri);
  if (url === undefined || url.protocol !== 'skill:' || url.search !== '' || !ORIGINS.includes(url.host)) {
    return undefined;
  }
  const segments = url.pathname.split('/').slice(1).map(decodedSegment);
  if (segments.length < 2 || !segments.every((segment): segment is string => segment !== undefined)) return undefined;
  const [name, ...path] = segments as [string, ...string[]];
  return { origin: url.host as SkillOrigin, name, path: path.join('/') };
}

function parsed(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

function decodedSegment(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  const unsafe = decoded === '' || decoded === '.' || decoded === '..' || /[/\\\0]/.test(decoded);
  return unsafe ? undefined : decoded;
}

/** A file's media type as a client shows it: skills are markdown with text beside it. */
export const mimeTypeOf = (path: string) => (path.endsWith('.md') ? 'text/markdown' : 'text/plain');
