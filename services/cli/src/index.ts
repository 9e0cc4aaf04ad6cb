export { buildClientArchive, CLIENT_SOURCE_DIR, type ClientArchive } from './archive';
export { RELEASE_RECORD } from './record';
