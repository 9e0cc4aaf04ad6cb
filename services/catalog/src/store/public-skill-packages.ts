import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ENTRYPOINT, validateSkillPackage, type SkillFiles, type SkillManifest } from '../domain/skills/package';

/** One of RDE's own skill packages as read from its folder at start. */
export interface PublicSkillPackage {
  readonly manifest: SkillManifest;
  /** Relative path → text, for every regular file inside the package folder. */
  readonly files: SkillFiles;
}

/**
 * Reads RDE's own skill packages (one folder per package, `SKILL.md` at its root) once, at start.
 * Requests are answered from what was read here: no request path ever reaches the filesystem. A
 * symbolic link is followed only when it resolves inside its package; one pointing outward is left
 * out. A package that is not a valid skill, or whose name is not its folder's, stops the start.
 */
export class PublicSkillPackagesRepository {
  static async load(directory: string): Promise<PublicSkillPackage[]> {
    const root = await realpath(directory);
    const folders = (await readdir(root, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const packages: PublicSkillPackage[] = [];
    for (const folder of folders) {
      const packageRoot = path.join(root, folder);
      const files = Object.fromEntries(await filesInside(packageRoot, packageRoot));
      if (!(ENTRYPOINT in files)) continue;
      const manifest = validateSkillPackage(files);
      if (manifest.name !== folder) {
        throw new Error(
          `skill package ${folder}: its SKILL.md names it ${manifest.name}; the name must be the folder's`,
        );
      }
      packages.push({ manifest, files });
    }
    return packages;
  }
}

async function filesInside(packageRoot: string, directory: string): Promise<[string, string][]> {
  const found: [string, string][] = [];
  for (const name of (await readdir(directory)).sort()) {
    const full = path.join(directory, name);
    const target = await insideTarget(packageRoot, full);
    if (!target) continue;
    const stats = await lstat(target);
    if (stats.isDirectory()) found.push(...(await filesInside(packageRoot, target)));
    else if (stats.isFile())
      found.push([path.relative(packageRoot, full).split(path.sep).join('/'), await readFile(target, 'utf8')]);
  }
  return found;
}

/** Where an entry really is, or undefined when it resolves outside the package (an outward link). */
async function insideTarget(packageRoot: string, entry: string): Promise<string | undefined> {
  const real = await realpath(entry).catch(() => undefined);
  if (real === undefined) return undefined;
  return real === packageRoot || real.startsWith(packageRoot + path.sep) ? real : undefined;
}
