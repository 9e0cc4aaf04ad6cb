#!/usr/bin/env node
/** Writes rde.pyz into a folder (default: the current one), for a release store: `node dist/build.js out/`. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildClientArchive } from './archive';

async function main(): Promise<void> {
  const archive = await buildClientArchive();
  const target = path.resolve(process.argv[2] ?? '.', 'rde.pyz');
  await writeFile(target, archive.bytes, { mode: 0o755 });
  process.stdout.write(`${archive.sha256}  ${target} (rde ${archive.version})\n`);
}

void main();
