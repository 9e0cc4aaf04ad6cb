import {
  PerRequestHTTPServerTransport,
  type AuthInfo,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';

/** The single-exchange transports the JSON fast path (decision 0038) connects a server to, one per era. */

export interface ExchangeOutcome {
  readonly message: JSONRPCMessage;
  /** Answered while the message was being delivered: by the protocol layer's pre-handler gates. */
  readonly beforeDispatch: boolean;
}

/**
 * The terminal answer to the one request a single-exchange transport delivers, handed back as a
 * value instead of a web `Response` (whose body stream, and reading it back, cost more than the rest
 * of the transport). JSON mode drops related notifications, so only that answer matters.
 */
class TerminalAnswer {
  #requestId: JSONRPCRequest['id'] | undefined;
  #dispatching = false;
  #settle: ((outcome: ExchangeOutcome) => void) | undefined;

  /** Delivers the request (`deliver` calls the server's `onmessage`) and waits for its answer. */
  awaitAnswer(request: JSONRPCRequest, deliver: () => void): Promise<ExchangeOutcome> {
    this.#requestId = request.id;
    const answered = new Promise<ExchangeOutcome>((resolve) => (this.#settle = resolve));
    this.#dispatching = true;
    try {
      deliver();
    } finally {
      this.#dispatching = false;
    }
    return answered;
  }

  /** What the server sends: the answer to the request settles the exchange; anything else is dropped. */
  offer(message: JSONRPCMessage): void {
    if (!('id' in message) || message.id !== this.#requestId || 'method' in message) return;
    this.#settle?.({ message, beforeDispatch: this.#dispatching });
    this.#settle = undefined;
  }
}

/**
 * The 2026-07-28 transport. It extends the SDK's `PerRequestHTTPServerTransport` only for the
 * documented binding: connecting a `Server` to an instance of it binds the server to the classified
 * revision, exactly as the SDK entry's own exchanges are bound. Its serving methods are its own;
 * `handleMessage` is never used.
 */
export class ModernExchangeTransport extends PerRequestHTTPServerTransport {
  readonly #answer = new TerminalAnswer();
  readonly #classification: MessageClassification;

  constructor(classification: MessageClassification) {
    super({ classification, responseMode: 'json' });
    this.#classification = classification;
  }

  override async start(): Promise<void> {}

  /** Delivers the request as the SDK's transport does: its classification and auth alongside. */
  exchange(request: JSONRPCRequest, authInfo: AuthInfo): Promise<ExchangeOutcome> {
    return this.#answer.awaitAnswer(request, () =>
      this.onmessage?.(request, { classification: this.#classification, authInfo }),
    );
  }

  override async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    this.#answer.offer(message);
  }
}

/**
 * The 2025-era transport: a plain `Transport`, so the server stays unbound to any revision, as it is
 * on the SDK's stateless transport, which delivers each message with no classification.
 */
export class LegacyExchangeTransport implements Transport {
  onmessage?: Transport['onmessage'];
  readonly #answer = new TerminalAnswer();

  async start(): Promise<void> {}

  async close(): Promise<void> {}

  exchange(request: JSONRPCRequest, authInfo: AuthInfo): Promise<ExchangeOutcome> {
    const extra: MessageExtraInfo = { authInfo };
    return this.#answer.awaitAnswer(request, () => this.onmessage?.(request, extra));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.#answer.offer(message);
  }
}
