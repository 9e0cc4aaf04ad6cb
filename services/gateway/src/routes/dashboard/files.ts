import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** One built file, held in memory with its compressed forms (the dashboard is a few hundred KB). */
export interface DashboardFile {
  readonly type: string;
  readonly identity: Buffer;
  readonly br: Buffer;
  readonly gzip: Buffer;
}

export interface DashboardFiles {
  /** The page every dashboard path answers; the app's router picks the view. */
  readonly index: DashboardFile;
  /** Hashed assets by file name: a request names one of these or gets 404, never a path on disk. */
  readonly assets: ReadonlyMap<string, DashboardFile>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Reads the dashboard's build once at start (services/web's `dist`). */
export function loadDashboard(root: string): DashboardFiles {
  const assetsDir = path.join(root, 'assets');
  const names = readdirSync(assetsDir).filter((name) => path.extname(name) in TYPES);
  return {
    index: fileAt(path.join(root, 'index.html')),
    assets: new Map(names.map((name) => [name, fileAt(path.join(assetsDir, name))])),
  };
}

function fileAt(location: string): DashboardFile {
  const identity = readFileSync(location);
  return { type: TYPES[path.extname(location)], identity, br: brotli(identity), gzip: gzipSync(identity) };
}

/**
 * Every process start compresses the build: brotli's default quality (11) costs about 0.6 s of CPU
 * for the app's script, quality 5 a few milliseconds for a file a few percent larger.
 */
function brotli(content: Buffer): Buffer {
  return brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
}

/** The smallest encoding the client accepts: brotli, gzip, or none. */
export function encodingFor(acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = (acceptEncoding ?? '').split(',').map((part) => part.trim().split(';')[0]);
  if (accepted.includes('br')) return 'br';
  return accepted.includes('gzip') ? 'gzip' : 'identity';
}
