import type { Caller } from '@rde/platform';
import type { catalog } from '@rde/proto';
import type { VendorPacing, VendorRate } from '../vendors/pacing';
import type { VendorPauses } from './vendor-pauses';

export type JsonObject = Record<string, unknown>;

/** What the waterfall needs of a provider method's catalog contract. */
export interface MethodContract {
  /** Price of a hit, in millicredits. */
  readonly price: number;
  /** An asynchronous method's job, as its catalog contract declares it. */
  readonly job?: catalog.JobDeclaration;
  /** The vendor's published request rate, when it publishes one. */
  readonly rate?: VendorRate;
}

export type ProviderResult =
  | { readonly ok: true; readonly answer: JsonObject }
  | { readonly ok: false; readonly reason: string; readonly message: string; readonly retryAfterMs?: number };

export interface ProviderCall {
  readonly tool: string;
  readonly method: string;
  readonly payload: JsonObject;
  /** Deterministic per vendor call, so a retried invocation does not call the vendor twice. */
  readonly invocationId?: string;
}

/** The vendors, reached through the catalog (which holds their adapters and keys) without billing. */
export interface ProviderPort {
  invoke(call: ProviderCall, caller: Caller): Promise<ProviderResult>;
  contract(tool: string, method: string): Promise<MethodContract>;
}

export interface PacingOptions {
  /** Calls in flight per vendor from this process. */
  readonly concurrency: number;
  /** How long a call may keep waiting out a vendor's 429s before it counts as a failure. */
  readonly rateLimitBudgetMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now?: () => number;
  /** The vendors' 429 pauses shared with the other replicas; without it a pause is this replica's own. */
  readonly shared?: Pick<VendorPauses, 'until' | 'pause'>;
  /** Every replica's calls to a vendor paced together at its published rate; without it only 429s slow them. */
  readonly pacing?: Pick<VendorPacing, 'take'>;
}

/**
 * Rows run in parallel within each vendor's limits: at most `concurrency` calls in flight per
 * vendor, and a 429 is waited out (its Retry-After, else a growing back-off) and retried instead
 * of being turned into a miss. A 429 pauses every call to that vendor, not only the refused one,
 * so a busy run does not keep knocking on a vendor that asked it to wait.
 */
export class PacedProviders implements ProviderPort {
  private readonly gates = new Map<string, Gate>();

  constructor(
    private readonly inner: ProviderPort,
    private readonly options: PacingOptions,
  ) {}

  contract(tool: string, method: string): Promise<MethodContract> {
    return this.inner.contract(tool, method);
  }

  async invoke(call: ProviderCall, caller: Caller): Promise<ProviderResult> {
    const gate = this.gateOf(call.tool);
    const { shared } = this.options;
    // Read when the call has its slot, not when it queued for one: a busy run queues hundreds of
    // rows, and a pause told meanwhile (to this replica or another) must hold all of them.
    const sharedPause = shared ? () => shared.until(call.tool) : undefined;
    // A refused call keeps its slot while it waits out the pause (every other call waits it out
    // too), so it is retried ahead of the calls queued after it: the vendor answers rows in the
    // order they came, and a run's first rows move on to the chain's next provider first.
    return gate.run(async (waitOutPauses) => {
      let waited = 0;
      for (let attempt = 0; ; attempt++) {
        await this.paced(call);
        const answer = await this.inner.invoke(call, caller);
        if (answer.ok || answer.reason !== 'rate_limited' || waited >= this.options.rateLimitBudgetMs) return answer;
        const pause = answer.retryAfterMs ?? Math.min(250 * 2 ** attempt, 4_000);
        gate.pauseFor(pause);
        waited += pause;
        await shared?.pause(call.tool, pause);
        await waitOutPauses();
      }
    }, sharedPause);
  }

  /** Waits for the call's place in its vendor's shared pace (a retry takes a place too: it is a request). */
  private async paced(call: ProviderCall): Promise<void> {
    const { pacing } = this.options;
    if (!pacing) return;
    const { rate } = await this.inner.contract(call.tool, call.method);
    if (rate) await pacing.take(call.tool, rate);
  }

  private gateOf(tool: string): Gate {
    let gate = this.gates.get(tool);
    if (!gate) {
      gate = new Gate(this.options.concurrency, this.options.sleep, this.options.now ?? Date.now);
      this.gates.set(tool, gate);
    }
    return gate;
  }
}

/** A counting semaphore that a vendor's 429 can close for a while. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private pausedUntil = 0;

  constructor(
    private readonly limit: number,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly now: () => number,
  ) {}

  /** No call starts before `ms` from now. */
  pauseFor(ms: number): void {
    this.pauseUntil(this.now() + ms);
  }

  /** No call starts before `at` (epoch ms). */
  pauseUntil(at: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, at);
  }

  /**
   * Runs the task in a free slot once no pause holds it: the pause is checked after the slot is
   * taken (with `sharedPause`, the other replicas' too), so calls that queued before a 429 wait it
   * out instead of knocking on the vendor again. The task gets the same wait, for a retry in its slot.
   */
  async run<T>(
    task: (waitOutPauses: () => Promise<void>) => Promise<T>,
    sharedPause?: () => Promise<number>,
  ): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    const waitOutPauses = async () => {
      if (sharedPause) this.pauseUntil(await sharedPause());
      for (let wait = this.pausedUntil - this.now(); wait > 0; wait = this.pausedUntil - this.now()) {
        await this.sleep(wait);
      }
    };
    try {
      await waitOutPauses();
      return await task(waitOutPauses);
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
