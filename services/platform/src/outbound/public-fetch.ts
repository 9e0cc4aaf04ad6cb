import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { isPublicAddress, literalAddressOf } from './public-address';

/** Why an outbound fetch of a user-given URL was not made or not used: a sentence for the user. */
export class OutboundRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'OutboundRefused';
  }
}

export interface PublicFetchOptions {
  /** The whole exchange, connect to last byte. */
  readonly timeoutMs: number;
  /** A larger body is refused as soon as it passes this. */
  readonly maxBytes: number;
  readonly accept: string;
  /** Test setting: also fetch `http://127.0.0.1:<port>/…` (never any other loopback or private address). */
  readonly allowLoopbackHttp?: boolean;
}

export interface PublicResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/**
 * GET of a URL that came from a user (decision 0078): https only; the name is resolved, every
 * address checked, and the connection made to a checked address (the check is the socket's own
 * lookup, so no second resolution can swap in an internal one); redirects are not followed; the
 * size and the time are bounded.
 */
export async function fetchPublic(url: string, options: PublicFetchOptions): Promise<PublicResponse> {
  const target = checkedUrl(url, options.allowLoopbackHttp ?? false);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await request(target, {
      dispatcher: guardedAgent,
      headers: { accept: options.accept },
      signal,
    });
    if (response.statusCode >= 300 && response.statusCode < 400) {
      await response.body.dump();
      throw new OutboundRefused(`answered a redirect (${response.statusCode}), which is not followed`);
    }
    return {
      status: response.statusCode,
      headers: response.headers,
      body: await bounded(response.body, options.maxBytes),
    };
  } catch (error) {
    if (error instanceof OutboundRefused) throw error;
    if (signal.aborted) throw new OutboundRefused(`did not answer within ${options.timeoutMs} ms`);
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof OutboundRefused) throw cause;
    throw new OutboundRefused(`could not be fetched (${(error as Error).message})`);
  }
}

/** The URL when its scheme and literal host may be fetched; a DNS name is checked at connect. */
function checkedUrl(text: string, allowLoopbackHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundRefused('is not an absolute URL');
  }
  if (url.username || url.password) throw new OutboundRefused('must not carry credentials');
  if (allowLoopbackHttp && url.protocol === 'http:' && url.hostname === '127.0.0.1') return url;
  if (url.protocol !== 'https:') throw new OutboundRefused('must use https');
  const literal = literalAddressOf(url.hostname);
  if (literal !== undefined && !isPublicAddress(literal))
    throw new OutboundRefused(`names ${literal}, which is not a public address`);
  return url;
}

/** dns.lookup, refusing a name when any address it resolves to is not public. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const internal = addresses.find(({ address }) => !isPublicAddress(address));
    if (internal) {
      return callback(
        new OutboundRefused(`${hostname} resolves to ${internal.address}, which is not a public address`),
        '',
        0,
      );
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as AllCallback)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

/** One pool for every such fetch; its sockets resolve names through the check above. */
const guardedAgent = new Agent({ connect: { lookup: publicLookup } });

async function bounded(body: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new OutboundRefused(`is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
