import { errors } from '@rde/platform';
import { deterministicTarGz, sha256Digest, sha256Hex } from '../../domain/skills/archive';
import type { PublicSkillPackage } from '../../store/public-skill-packages';

export interface PublicSkillView {
  readonly name: string;
  readonly description: string;
  readonly digest: string;
  readonly files: readonly string[];
}

interface BuiltPackage {
  readonly view: PublicSkillView;
  readonly files: ReadonlyMap<string, { content: Buffer; sha256: string }>;
  readonly archive: Buffer;
}

/**
 * RDE's own skills as the discovery routes serve them: each package's files, its deterministic
 * archive and digest, the bundle of every package, and the catalog's version (a hash over every
 * package's name and digest). Built once at start; files are looked up by package name, then by
 * the exact relative path in that package's file list.
 */
export class PublicSkillCatalog {
  private constructor(
    private readonly packages: ReadonlyMap<string, BuiltPackage>,
    private readonly bundle: { archive: Buffer; digest: string },
    readonly sha256: string,
  ) {}

  static async build(packages: readonly PublicSkillPackage[]): Promise<PublicSkillCatalog> {
    const built = new Map<string, BuiltPackage>();
    for (const { manifest, files } of packages) {
      const contents = Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text, 'utf8') }));
      const archive = await deterministicTarGz(contents);
      built.set(manifest.name, {
        view: { ...manifest, digest: sha256Digest(archive), files: contents.map((file) => file.path).sort() },
        files: new Map(contents.map(({ path, content }) => [path, { content, sha256: sha256Hex(content) }])),
        archive,
      });
    }
    const bundleArchive = await deterministicTarGz(
      packages.flatMap(({ manifest, files }) =>
        Object.entries(files).map(([path, text]) => ({ path: `${manifest.name}/${path}`, content: Buffer.from(text) })),
      ),
    );
    const version = sha256Hex([...built.values()].map(({ view }) => `${view.name} ${view.digest}\n`).join(''));
    return new PublicSkillCatalog(built, { archive: bundleArchive, digest: sha256Digest(bundleArchive) }, version);
  }

  list(): PublicSkillView[] {
    return [...this.packages.values()].map((built) => built.view);
  }

  file(name: string, path: string): { content: Buffer; sha256: string } {
    const file = this.packages.get(name)?.files.get(path);
    if (!file) throw errors.notFound('Not Found');
    return file;
  }

  /** A package's archive, or with no name the bundle of every package. */
  archive(name: string): { archive: Buffer; digest: string } {
    if (name === '') return this.bundle;
    const built = this.packages.get(name);
    if (!built) throw errors.notFound('Not Found');
    return { archive: built.archive, digest: built.view.digest };
  }
}
