import { request } from 'undici';
import { httpError } from '@rde/platform';

/** A release asset is small (tens of kilobytes); anything far larger is not one. */
const MAX_ASSET_BYTES = 32 * 1024 * 1024;

/**
 * The release store: a plain HTTP base URL from configuration (a bucket's website endpoint, a CDN,
 * any static server) holding `<base>/v<version>/rde.pyz`. Only versions the release record lists
 * are ever asked for.
 */
export class ReleaseStoreClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async asset(version: string): Promise<Buffer> {
    const url = `${this.baseUrl.replace(/\/$/, '')}/v${version}/rde.pyz`;
    const response = await request(url, { headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs }).catch(
      () => undefined,
    );
    if (!response || response.statusCode !== 200) {
      await response?.body.dump();
      throw httpError(502, { detail: `the release store did not answer release ${version}` });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ASSET_BYTES) {
        response.body.destroy();
        throw httpError(502, { detail: `the release store's release ${version} is larger than any release` });
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }
}
