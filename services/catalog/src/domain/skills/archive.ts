import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';

/**
 * Deterministic .tar.gz archives (decision 0063): entries sorted by path, directories before their
 * files, every entry with the same mtime, owner and mode, and a gzip header with no name and no
 * mtime and a fixed OS byte. The same files give the same bytes on any machine and any day.
 */
export interface ArchiveEntry {
  readonly path: string;
  readonly content: Buffer;
}

const FIXED_MTIME = new Date(0);
/** Offset of the OS byte in the gzip header (RFC 1952); 3 = Unix, whatever the build host. */
const GZIP_OS_OFFSET = 9;
const GZIP_OS_UNIX = 3;

export async function deterministicTarGz(entries: readonly ArchiveEntry[]): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    tar.on('end', resolve);
    tar.on('error', reject);
  });
  const owner = { uid: 0, gid: 0, uname: '', gname: '', mtime: FIXED_MTIME };
  for (const directory of directoriesOf(entries)) {
    tar.entry({ ...owner, name: `${directory}/`, type: 'directory', mode: 0o755 });
  }
  for (const entry of [...entries].sort((a, b) => compare(a.path, b.path))) {
    tar.entry({ ...owner, name: entry.path, type: 'file', mode: 0o644, size: entry.content.length }, entry.content);
  }
  tar.finalize();
  await ended;
  const gzipped = gzipSync(Buffer.concat(chunks), { level: 9 });
  gzipped[GZIP_OS_OFFSET] = GZIP_OS_UNIX;
  return gzipped;
}

/** `sha256:<hex>` of some bytes, as the discovery index writes digests. */
export function sha256Digest(bytes: Buffer): string {
  return `sha256:${sha256Hex(bytes)}`;
}

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Every directory that holds an entry, parents first, sorted. */
function directoriesOf(entries: readonly ArchiveEntry[]): string[] {
  const directories = new Set<string>();
  for (const { path } of entries) {
    const parts = path.split('/');
    for (let depth = 1; depth < parts.length; depth++) directories.add(parts.slice(0, depth).join('/'));
  }
  return [...directories].sort(compare);
}

/** Byte order of the UTF-8 paths, not the locale's: the same on every machine. */
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
