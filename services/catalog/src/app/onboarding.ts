import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '@rde/platform';
import { BRAND_ASSETS } from '../domain/distribution/brand';
import { REFERENCE_TABLES } from '../domain/distribution/occupations';
import { RECIPES, type Recipe } from '../domain/distribution/recipes';

/** The brand files shipped with the service (services/catalog/assets/brand). */
const BRAND_DIR = path.resolve(__dirname, '../../assets/brand');

interface Reference {
  readonly markdown: string;
  readonly etag: string;
}

interface BrandAsset {
  readonly content: Buffer;
  readonly contentType: string;
}

/** Recipes, reference tables and brand assets: fixed content, read and rendered once at start. */
export class Onboarding {
  private constructor(
    private readonly references: ReadonlyMap<string, Reference>,
    private readonly brand: ReadonlyMap<string, BrandAsset>,
  ) {}

  static async load(): Promise<Onboarding> {
    const references = new Map(
      Object.entries(REFERENCE_TABLES).map(([name, render]) => [name, withEtag(render())] as const),
    );
    const brand = new Map<string, BrandAsset>();
    for (const [name, { file, contentType }] of BRAND_ASSETS) {
      brand.set(name, { content: await readFile(path.join(BRAND_DIR, file)), contentType });
    }
    return new Onboarding(references, brand);
  }

  recipes(): readonly Recipe[] {
    return RECIPES;
  }

  reference(name: string): Reference {
    const found = this.references.get(name);
    if (!found)
      throw errors.notFound(`no reference table ${name}: there are ${[...this.references.keys()].join(', ')}`);
    return found;
  }

  brandAsset(name: string): BrandAsset {
    const found = this.brand.get(name);
    if (!found) throw errors.notFound(`no brand asset ${name}`);
    return found;
  }
}

function withEtag(markdown: string): Reference {
  return { markdown, etag: `"${createHash('sha256').update(markdown).digest('base64url')}"` };
}
