import { parseDocument } from 'yaml';

/**
 * A skill package: relative path → text. Valid only with a `SKILL.md` at its root whose YAML
 * frontmatter has a `name` (the agentskills.io rules) and a `description` of at most 1024
 * characters, relative paths that stay inside it, text content and sizes within the limits
 * (decision 0064).
 */
export type SkillFiles = Readonly<Record<string, string>>;

export const SKILL_LIMITS = {
  filesPerPackage: 50,
  bytesPerFile: 256 * 1024,
  bytesPerPackage: 1024 * 1024,
  pathLength: 200,
  nameLength: 64,
  descriptionLength: 1024,
} as const;

export const ENTRYPOINT = 'SKILL.md';

export interface SkillManifest {
  readonly name: string;
  readonly description: string;
}

/** Why a package is not a valid text skill: the 400's `detail`. */
export class InvalidSkillPackage extends Error {}

/** The agentskills.io name rule: lowercase letters, digits and single hyphens, not at either end. */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Control characters other than tab, newline and carriage return: not text. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
}

/** Checks a whole package and answers its manifest; throws InvalidSkillPackage with the reason. */
export function validateSkillPackage(files: SkillFiles): SkillManifest {
  const paths = Object.keys(files);
  if (paths.length > SKILL_LIMITS.filesPerPackage) {
    throw new InvalidSkillPackage(
      `a package has at most ${SKILL_LIMITS.filesPerPackage} files; this one has ${paths.length}`,
    );
  }
  let total = 0;
  for (const path of paths) {
    checkPath(path);
    const bytes = checkContent(path, files[path]);
    total += bytes;
  }
  if (total > SKILL_LIMITS.bytesPerPackage) {
    throw new InvalidSkillPackage(
      `a package holds at most ${SKILL_LIMITS.bytesPerPackage} bytes; this one has ${total}`,
    );
  }
  if (!(ENTRYPOINT in files)) throw new InvalidSkillPackage('a package needs a SKILL.md at its root');
  return parseManifest(files[ENTRYPOINT]);
}

/** The frontmatter of a SKILL.md: `---`, YAML with `name` and `description`, `---`. */
export function parseManifest(skillMd: string): SkillManifest {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(skillMd);
  if (!match) throw new InvalidSkillPackage('SKILL.md must start with YAML frontmatter between --- lines');
  const document = parseDocument(match[1]);
  if (document.errors.length > 0) {
    throw new InvalidSkillPackage(`SKILL.md frontmatter is not valid YAML: ${document.errors[0].message}`);
  }
  const data: unknown = document.toJS();
  const { name, description } = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  if (typeof name !== 'string' || name.length > SKILL_LIMITS.nameLength || !NAME.test(name)) {
    throw new InvalidSkillPackage(
      `SKILL.md frontmatter needs a name of 1 to ${SKILL_LIMITS.nameLength} lowercase letters, digits and single hyphens`,
    );
  }
  if (
    typeof description !== 'string' ||
    description.trim() === '' ||
    description.length > SKILL_LIMITS.descriptionLength
  ) {
    throw new InvalidSkillPackage(
      `SKILL.md frontmatter needs a description of 1 to ${SKILL_LIMITS.descriptionLength} characters`,
    );
  }
  return { name, description };
}

function checkPath(path: string): void {
  const reason =
    path === ''
      ? 'is empty'
      : path.length > SKILL_LIMITS.pathLength
        ? `is longer than ${SKILL_LIMITS.pathLength} characters`
        : path.includes('\0')
          ? 'contains NUL'
          : path.includes('\\')
            ? 'contains a backslash'
            : path.startsWith('/') || /^[A-Za-z]:/.test(path)
              ? 'is absolute'
              : path.split('/').some((part) => part === '' || part === '.' || part === '..')
                ? 'has an empty, . or .. segment'
                : undefined;
  if (reason) throw new InvalidSkillPackage(`file path ${JSON.stringify(path)} ${reason}`);
}

function checkContent(path: string, content: unknown): number {
  if (typeof content !== 'string' || hasControlCharacter(content)) {
    throw new InvalidSkillPackage(`file ${JSON.stringify(path)} is not text`);
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > SKILL_LIMITS.bytesPerFile) {
    throw new InvalidSkillPackage(
      `file ${JSON.stringify(path)} has ${bytes} bytes; at most ${SKILL_LIMITS.bytesPerFile}`,
    );
  }
  return bytes;
}

/** Two packages are the same content when they have the same paths with the same text. */
export function samePackage(a: SkillFiles, b: SkillFiles): boolean {
  const paths = Object.keys(a);
  return paths.length === Object.keys(b).length && paths.every((path) => b[path] === a[path]);
}
