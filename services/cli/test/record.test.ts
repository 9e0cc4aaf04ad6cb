import { readFile } from 'node:fs/promises';
import { buildClientArchive, RELEASE_RECORD } from '../src';

/**
 * A release never changes its bytes: the catalog refuses to start when the record holds this
 * build's version with another hash. This says so at test time, with what to do.
 */
describe('the release record', () => {
  it("holds this build's version with this build's SHA-256, or not yet at all", async () => {
    const build = await buildClientArchive();
    const record = JSON.parse(await readFile(RELEASE_RECORD, 'utf8')) as { version: string; sha256: string }[];
    const recorded = record.find((release) => release.version === build.version);
    if (recorded) {
      expect({ version: build.version, sha256: build.sha256 }).toEqual(recorded); // changed the client? bump __version__
    }
  });
});
