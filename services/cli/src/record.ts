import path from 'node:path';
import { CLIENT_SOURCE_DIR } from './archive';

/**
 * The published releases of the client: a JSON list of {version, sha256}, newest last. A version in
 * it never changes its bytes; the catalog refuses to start with a build that would.
 */
export const RELEASE_RECORD = path.join(CLIENT_SOURCE_DIR, 'releases.json');
