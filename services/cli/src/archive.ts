import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { ZipFile } from 'yazl';

/** The client's Python sources, shipped in this package beside dist/. */
export const CLIENT_SOURCE_DIR = path.resolve(__dirname, '..');
const PACKAGE = 'rde_cli';
const SHEBANG = Buffer.from('#!/usr/bin/env python3\n');
/** Every entry's time: 1980-01-01, the earliest a zip can carry (local time, as yazl writes DOS times). */
const FIXED_TIME = new Date(1980, 0, 1, 0, 0, 0);
const FILE_MODE = 0o100644;

export interface ClientArchive {
  readonly version: string;
  readonly bytes: Buffer;
  readonly sha256: string;
}

/**
 * The client as a zipapp, byte for byte the same from any copy of its sources: entries sorted by
 * name, one fixed time and mode, stored uncompressed (so no zlib version can change the bytes),
 * only `.py` sources (never a `.pyc`), the shebang prepended. stdlib `zipapp` copies file times,
 * modes and directory order, so it is not reproducible.
 */
export async function buildClientArchive(sourceDir: string = CLIENT_SOURCE_DIR): Promise<ClientArchive> {
  const sources = await pythonSources(path.join(sourceDir, PACKAGE));
  // The package's __main__ is the archive's too: `python3 rde.pyz` runs it.
  sources.set('__main__.py', sources.get(`${PACKAGE}/__main__.py`) ?? Buffer.alloc(0));
  const zip = new ZipFile();
  for (const name of [...sources.keys()].sort()) {
    zip.addBuffer(sources.get(name)!, name, {
      mtime: FIXED_TIME,
      mode: FILE_MODE,
      compress: false,
      forceDosTimestamp: true,
    });
  }
  zip.end();
  const bytes = Buffer.concat([SHEBANG, await buffer(zip.outputStream)]);
  return {
    version: versionOf(sources.get(`${PACKAGE}/__init__.py`)),
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** `rde_cli/**.py` by archive name (forward slashes, relative to the source folder). */
async function pythonSources(packageDir: string): Promise<Map<string, Buffer>> {
  const entries = await readdir(packageDir, { recursive: true, withFileTypes: true });
  const sources = new Map<string, Buffer>();
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.py')) continue;
    const full = path.join(entry.parentPath, entry.name);
    const name = path.relative(path.dirname(packageDir), full).split(path.sep).join('/');
    sources.set(name, await readFile(full));
  }
  return sources;
}

function versionOf(init: Buffer | undefined): string {
  const match = init?.toString('utf8').match(/^__version__ = "(\d+\.\d+\.\d+)"$/m);
  if (!match) throw new Error(`${PACKAGE}/__init__.py declares no __version__ = "X.Y.Z"`);
  return match[1]!;
}
