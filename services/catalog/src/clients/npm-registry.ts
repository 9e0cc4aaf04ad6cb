import { request, type Dispatcher } from 'undici';
import { errors, httpError } from '@rde/platform';
import { encodedName, tarballUrl } from '../domain/distribution/npm';

/** The upstream package registry, at a base URL from configuration only. */
export class NpmRegistryClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async packument(name: string): Promise<Record<string, unknown>> {
    const response = await this.get(`${this.baseUrl.replace(/\/$/, '')}/${encodedName(name)}`, name);
    return (await response.body.json()) as Record<string, unknown>;
  }

  /** The tarball's bytes as the registry sends them, chunk by chunk. */
  async tarball(name: string, version: string): Promise<AsyncIterable<Buffer>> {
    const response = await this.get(tarballUrl(this.baseUrl, name, version), `${name}@${version}`);
    return response.body as AsyncIterable<Buffer>;
  }

  private async get(url: string, what: string): Promise<Dispatcher.ResponseData> {
    const response = await request(url, {
      headers: { accept: 'application/json' },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    }).catch(() => undefined);
    if (response?.statusCode === 200) return response;
    await response?.body.dump();
    if (response?.statusCode === 404) throw errors.notFound(`the registry has no ${what}`);
    throw httpError(502, { detail: `the package registry did not answer ${what}` });
  }
}
