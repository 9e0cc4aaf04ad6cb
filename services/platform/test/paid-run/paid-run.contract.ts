import { billingEvents, topics } from '@rde/proto';
import type { Backends } from '../../src/backends';
import { ManualClock } from '../../src/clock';
import { OutboxRelay, type WithOutbox } from '../../src/outbox';
import type { Bus } from '../../src/ports/bus';
import {
  chargeIdOf,
  CreditHolds,
  heldOrThrow,
  PaidRunKit,
  PaidRunRepository,
  RunLeases,
  settlementIdOf,
  WaitingSettlements,
  type Payer,
  type PaidRunDocument,
  type PaidRunRef,
} from '../../src/paid-run';
import { collect, type Collector } from '../contract/support/collect';
import { testLogger, uniqueName } from '../contract/support/real-backends';
import { waitUntil } from '../contract/support/wait';
import { BillingDouble } from './billing-double';

type RunDocument = WithOutbox<PaidRunDocument & { lease_owner: string; lease_until: Date }>;

const TTL_MS = 60_000;
const LEASE_MS = 30_000;
const member: Payer = { workspaceId: 'ws_kit', userId: 'usr_1', sessionId: 'ses_1', role: 'owner' } as Payer;
/** A workflow step pays with no user: only its workspace's cap applies. */
const workflow: Payer = { workspaceId: 'ws_kit', userId: '', sessionId: '', role: '' } as Payer;

/** One replica of a service using the kit: its own kit and relay over the shared store and bus. */
interface Replica {
  readonly kit: PaidRunKit;
  readonly runs: PaidRunRepository<RunDocument>;
  readonly leases: RunLeases<RunDocument>;
  readonly relay: OutboxRelay;
}

/** The paid-run kit over every store/bus pair: hold, charge, finish, release, renew, take-over. */
export function describePaidRunContract(name: string, backends: () => Promise<Backends>): void {
  describe(`paid-run kit: ${name}`, () => {
    let shared: Backends;
    let bus: Bus;
    let billing: BillingDouble;
    let clock: ManualClock;
    let settlements: Collector;
    let collection: string;
    let publishFails = false;

    const replica = async (): Promise<Replica> => {
      const store = await shared.documentStore('rde_kit');
      const runs = new PaidRunRepository<RunDocument>(store.collection<RunDocument>(collection), clock);
      const relay = new OutboxRelay({ collections: [runs.collection], bus, logger: testLogger, pollIntervalMs: 50 });
      const kit = new PaidRunKit({
        holds: new CreditHolds(billing.client, TTL_MS),
        clock,
        logger: testLogger,
        publish: (runId) =>
          publishFails ? Promise.reject(new Error('broker down')) : relay.relayDocument(runs.collection, runId),
      });
      return { kit, runs, relay, leases: new RunLeases(runs.collection, clock, LEASE_MS) };
    };

    /** Opens a hold and starts the run document, as every caller does before its work. */
    const open = async (at: Replica, runId: string, payer = member, amount = 3_000) => {
      const hold = heldOrThrow(await at.kit.holds.reserve({ runId, payer, amount, description: 'kit test' }));
      await at.runs.start({
        _id: runId,
        workspace_id: payer.workspaceId,
        user_id: payer.userId,
        session_id: payer.sessionId,
        reserved_millicredits: hold.held,
        ...at.leases.leaseFor(`owner-${runId}`),
      });
      return hold;
    };

    const ref = (runId: string, payer = member): PaidRunRef => ({ runId, payer, description: 'kit test' });

    const finish = (
      at: Replica,
      runId: string,
      charges: { charge_id: string; millicredits: number }[],
      payer = member,
    ) =>
      at.kit.finish(ref(runId, payer), { charges }, (settlement) =>
        at.runs.finish(runId, { status: 'succeeded', charges }, settlement),
      );

    /** The settlements published for one run (run ids are unique per test), once at least one arrived. */
    const decoded = () => settlements.messages.map((message) => billingEvents.Settlement.decode(message.value));
    const settlementsOf = async (runId: string) => {
      await waitUntil(() => decoded().some((settlement) => settlement.runId === runId), 20_000);
      return decoded().filter((settlement) => settlement.runId === runId);
    };

    beforeAll(async () => {
      shared = await backends();
      bus = await shared.bus('kit-test');
      settlements = await collect(bus, topics.SETTLEMENTS, uniqueName('billing'));
    });
    afterAll(async () => {
      await settlements.subscription.stop();
      await shared.close();
    });
    beforeEach(() => {
      billing = new BillingDouble(10_000);
      clock = new ManualClock();
      collection = uniqueName('runs');
      publishFails = false;
    });

    it('holds the worst case under the run id and answers the account the hold left', async () => {
      const at = await replica();
      const hold = await open(at, 'run_a');
      expect(hold).toEqual({
        runId: 'run_a',
        held: 3_000,
        account: { balance: 10_000, reserved: 3_000, available: 7_000 },
      });
      expect(billing.holds.get('run_a')).toBe(3_000);
    });

    it('decodes each refusal once: no credit (with what is available), a session cap, a spending cap', async () => {
      const at = await replica();
      const request = { runId: 'run_r', payer: member, amount: 12_000, description: 'kit test' };
      expect(await at.kit.holds.reserve(request)).toMatchObject({
        refused: { reason: 'insufficient_credits', available: 10_000 },
      });
      billing.sessionCapped = true;
      expect(await at.kit.holds.reserve(request)).toMatchObject({ refused: { reason: 'session_limit' } });
      billing.sessionCapped = false;
      billing.workspaceCap = 5_000;
      const capped = await at.kit.holds.reserve({ ...request, amount: 8_000 });
      expect(capped).toMatchObject({ refused: { reason: 'spending_cap_reached', scope: 'workspace' } });
      expect(() => heldOrThrow(capped)).toThrow(expect.objectContaining({ httpStatus: 402 }));
      expect(billing.holds.size).toBe(0);
    });

    it('a cap that trims work priced per unit holds the units that fit and says which cap trimmed it', async () => {
      const at = await replica();
      billing.workspaceCap = 5_000;
      const hold = heldOrThrow(
        await at.kit.holds.reserve({ runId: 'run_u', payer: member, amount: 8_000, unit: 2_000, description: 'rows' }),
      );
      expect(hold.held).toBe(4_000);
      expect(hold.cappedBy).toEqual({
        reason: 'spending_cap_reached',
        scope: 'workspace',
        detail: expect.stringContaining('spending cap'),
      });
    });

    it('holds what the balance covers when it cannot cover the worst case, and nothing past it', async () => {
      const at = await replica();
      const request = { runId: 'run_p', payer: member, amount: 25_000, unit: 3_000, description: 'kit test' };
      expect(heldOrThrow(await at.kit.holds.reserveUpTo(request)).held).toBe(9_000);
      billing.available = 0;
      const none = await at.kit.holds.reserveUpTo({ ...request, runId: 'run_q' });
      expect(none).toMatchObject({ refused: { reason: 'insufficient_credits', available: 0 } });
    });

    it('finishes with the settlement in the same write as the run end, publishes it, and finishes once', async () => {
      const at = await replica();
      await open(at, 'run_f');
      const charges = [{ charge_id: chargeIdOf('run_f', 0, 'mailfinder.find'), millicredits: 1_000 }];
      expect(await finish(at, 'run_f', charges)).toBe(true);
      const [settlement] = await settlementsOf('run_f');
      expect(settlement).toMatchObject({
        settlementId: settlementIdOf('run_f'),
        holdId: 'run_f',
        workspaceId: 'ws_kit',
        final: true,
        charges: [{ chargeId: 'run_f:0:mailfinder.find', amount: { millicredits: 1_000 }, userId: 'usr_1' }],
      });
      expect(await at.runs.get('run_f')).toMatchObject({ status: 'succeeded', credits_charged_millicredits: 1_000 });
      // A second finish (a retry, another replica) writes nothing and publishes nothing.
      expect(await finish(at, 'run_f', [])).toBe(false);
      await at.relay.drainOnce();
      expect(await settlementsOf('run_f')).toHaveLength(1);
    });

    it('a crash between the finish write and its publication still publishes the settlement, once', async () => {
      const at = await replica();
      await open(at, 'run_c');
      publishFails = true;
      expect(await finish(at, 'run_c', [{ charge_id: 'run_c:0:x.y', millicredits: 500 }])).toBe(true);
      // The run ended with its settlement in the outbox; the relay's next pass is what sends it.
      expect((await at.runs.get('run_c'))?._outbox).toHaveLength(1);
      expect(await at.relay.drainOnce()).toBe(1);
      expect((await settlementsOf('run_c')).map((s) => s.settlementId)).toEqual([settlementIdOf('run_c')]);
    });

    it('a settlement waiting in the outbox (broker down) keeps its hold alive until it is published', async () => {
      const at = await replica();
      await open(at, 'run_k');
      publishFails = true;
      expect(await finish(at, 'run_k', [{ charge_id: 'run_k:0:x.y', millicredits: 700 }])).toBe(true);
      const waiting = new WaitingSettlements({
        collections: [at.runs.collection],
        holds: at.kit.holds,
        clock,
        logger: testLogger,
      });
      // Just written, it is the writer's to publish: nothing renewed yet.
      expect(await waiting.renewOnce()).toBe(0);
      clock.advance(1_000);
      expect(await waiting.renewOnce()).toBe(1);
      expect(billing.renewals).toEqual([{ holdId: 'run_k', workspaceId: 'ws_kit' }]);
      // Published, and billing settled it: nothing waits, nothing is renewed.
      expect(await at.relay.drainOnce()).toBe(1);
      billing.settle('run_k');
      clock.advance(TTL_MS / 4);
      expect(await waiting.renewOnce()).toBe(0);
      expect(billing.renewals).toHaveLength(1);
    });

    it('one waiting hold whose renewal fails does not keep the others from being renewed', async () => {
      const at = await replica();
      for (const id of ['run_f1', 'run_f2', 'run_f3']) await open(at, id);
      publishFails = true;
      for (const id of ['run_f1', 'run_f2', 'run_f3']) await finish(at, id, []);
      billing.failingRenewals.add('run_f2');
      const waiting = new WaitingSettlements({
        collections: [at.runs.collection],
        holds: at.kit.holds,
        clock,
        logger: testLogger,
      });
      clock.advance(1_000);
      expect(await waiting.renewOnce()).toBe(2);
      expect(billing.renewals.map((renewal) => renewal.holdId).sort()).toEqual(['run_f1', 'run_f3']);
      // Billing answers again: the next look renews it.
      billing.failingRenewals.clear();
      expect(await waiting.renewOnce()).toBe(3);
    });

    it('release ends a failed run with no charge: a final settlement that frees the whole hold', async () => {
      const at = await replica();
      await open(at, 'run_x');
      const released = await at.kit.release(ref('run_x'), (settlement) =>
        at.runs.finish('run_x', { status: 'failed', charges: [], error: 'vendor down' }, settlement),
      );
      expect(released).toBe(true);
      const [settlement] = await settlementsOf('run_x');
      expect(settlement).toMatchObject({ holdId: 'run_x', final: true, charges: [] });
      expect(await at.runs.get('run_x')).toMatchObject({ status: 'failed', error: 'vendor down' });
    });

    it('renews an open hold; once billing settled it, a renewal says it is gone', async () => {
      const at = await replica();
      await open(at, 'run_n');
      expect(await at.kit.holds.renew('run_n', member)).toBe(true);
      await finish(at, 'run_n', []);
      billing.settle((await settlementsOf('run_n'))[0]!.holdId);
      expect(await at.kit.holds.renew('run_n', member)).toBe(false);
    });

    it('takes over a run whose process died mid-way: one replica claims it after the lease, same hold and charge ids', async () => {
      const dead = await replica();
      await open(dead, 'run_t');
      // The dead process held and started the run, then stopped: no finish, no renewal.
      const survivor = await replica();
      expect(await survivor.leases.claimLapsed('survivor')).toBeNull();
      clock.advance(LEASE_MS + 1);
      const claimed = await survivor.leases.claimLapsed('survivor');
      expect(claimed).toMatchObject({ _id: 'run_t', lease_owner: 'survivor' });
      expect(await (await replica()).leases.claimLapsed('third')).toBeNull();
      // Its hold still stands under the run id: opening it again holds nothing more.
      expect(heldOrThrow(await survivor.kit.holds.reserve({ ...ref('run_t'), amount: 3_000 })).held).toBe(3_000);
      expect(billing.holds.size).toBe(1);
      const charges = [{ charge_id: chargeIdOf('run_t', 0, 'persona.lookup'), millicredits: 2_000 }];
      expect(await finish(survivor, 'run_t', charges)).toBe(true);
      // The dead process's late finish, if it ever woke, writes nothing.
      expect(await finish(dead, 'run_t', charges)).toBe(false);
      await settlementsOf('run_t');
      await survivor.relay.drainOnce();
      const published = await settlementsOf('run_t');
      expect(published).toHaveLength(1);
      expect(published[0]!.charges.map((c) => c.chargeId)).toEqual(['run_t:0:persona.lookup']);
    });

    it('a workflow step with no user spends with a deterministic charge id under its workspace alone', async () => {
      const at = await replica();
      await open(at, 'run_w', workflow, 1_000);
      const chargeId = chargeIdOf('run_w', 'step-2/item-7', 'mailfinder.find');
      expect(chargeId).toBe(chargeIdOf('run_w', 'step-2/item-7', 'mailfinder.find'));
      await finish(at, 'run_w', [{ charge_id: chargeId, millicredits: 1_000 }], workflow);
      const [settlement] = await settlementsOf('run_w');
      expect(settlement).toMatchObject({
        workspaceId: 'ws_kit',
        charges: [{ chargeId: 'run_w:step-2/item-7:mailfinder.find', userId: '', sessionId: '' }],
      });
    });
  });
}
