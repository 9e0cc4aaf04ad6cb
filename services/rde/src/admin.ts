import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { ConfigError, createClient, RdeError, type PromiseClient } from '@rde/platform';
import { auth, billingGrants, type common } from '@rde/proto';
import { InstanceLookupError, moduleAddress } from './instances';

export const ADMIN_USAGE = `  rde admin create-workspace --email <email> [--name <name>]
  rde admin add-member --workspace <id> --email <email> [--role member|owner]
  rde admin remove-member --workspace <id> --email <email>
      call the auth service at RDE_AUTH_ADDR, else of the running \`rde start\` on this machine
      (--instance <pid> chooses when several run); print one JSON object with the ids (and a new
      key's plaintext, shown this once)
  rde admin grant-credits --workspace <id> --credits <n> --reason <text> [--grant-id <id>] [--granted-by <name>]
      give a workspace n whole credits through billing (RDE_BILLING_ADDR, else the running instance's),
      a ledger entry its owner sees with the reason; once per grant id (generated when not given:
      rerun with the id printed on a failure)`;

/** The modules `rde admin` calls. */
type AdminModule = 'auth' | 'billing';
/** A module's client, connected on first use by a command and closed when the command ends. */
type Connect = <D extends Parameters<typeof createClient>[0]>(module: AdminModule, definition: D) => PromiseClient<D>;

class UsageError extends Error {}

const COMMANDS: Record<string, (args: string[], connect: Connect) => Promise<Record<string, string | number>>> = {
  async 'create-workspace'(args, connect) {
    const { email, name = '' } = options(args, { email: true, name: false });
    const created = await connect('auth', auth.AuthServiceService).createWorkspace({
      ownerEmail: email,
      name,
      keyPlaintext: '',
    });
    return {
      workspace_id: created.workspace!.id,
      workspace_name: created.workspace!.name,
      user_id: created.owner!.id,
      email: created.owner!.email,
      role: 'owner',
      key_id: created.key!.id,
      key: created.keyPlaintext,
    };
  },
  async 'add-member'(args, connect) {
    const { workspace, email, role = 'member' } = options(args, { workspace: true, email: true, role: false });
    const added = await connect('auth', auth.AuthServiceService).addMember({ workspaceId: workspace, email, role });
    return {
      workspace_id: workspace,
      user_id: added.user!.id,
      email: added.user!.email,
      role: added.role,
      key_id: added.key!.id,
      key: added.keyPlaintext,
    };
  },
  async 'remove-member'(args, connect) {
    const { workspace, email } = options(args, { workspace: true, email: true });
    const { user } = await connect('auth', auth.AuthServiceService).removeMember({ workspaceId: workspace, email });
    return { workspace_id: workspace, user_id: user!.id, email: user!.email };
  },
  async 'grant-credits'(args, connect) {
    const given = options(args, {
      workspace: true,
      credits: true,
      reason: true,
      'grant-id': false,
      'granted-by': false,
    });
    const credits = wholeCredits(given.credits);
    const grantId = given['grant-id'] ?? randomUUID();
    // Billing does not know workspaces: auth says whether this one exists (404 otherwise).
    await connect('auth', auth.AuthServiceService).findWorkspace({ workspaceId: given.workspace });
    const { entry, grantedBy } = await naming(grantId, () =>
      connect('billing', billingGrants.CreditGrantServiceService).grantCredits({
        workspaceId: given.workspace,
        grantId,
        credits,
        reason: given.reason,
        grantedBy: given['granted-by'] ?? operatorName(),
      }),
    );
    return {
      workspace_id: entry!.workspaceId,
      grant_id: grantId,
      entry_id: entry!.id,
      kind: entry!.kind,
      credits: creditsOf(entry!.amount),
      reason: entry!.description,
      granted_by: grantedBy,
      balance_after: creditsOf(entry!.balanceAfter),
      created_at: new Date(entry!.createdAtMs).toISOString(),
    };
  },
};

/** `--credits` as a whole number; its range is billing's to check (1 to GRANT_CREDITS_MAX). */
function wholeCredits(text: string): number {
  const credits = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(credits)) {
    throw new UsageError(`--credits must be a whole number of credits, not ${JSON.stringify(text)}`);
  }
  return credits;
}

/** Millicredits on the wire, whole credits in what the operator reads. */
const creditsOf = (amount: common.Credits | undefined) => (amount?.millicredits ?? 0) / 1000;

/** Who runs the command, kept on the entry: the operator's login on this machine. */
function operatorName(): string {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return `rde admin@${hostname()}`;
  }
}

/** A grant that may not have landed names its grant id, so the operator's rerun grants at most once. */
async function naming<T>(grantId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof RdeError) || error.httpStatus < 500) throw error;
    throw new RdeError(error.code, error.httpStatus, { ...error.body, rerun_with: `--grant-id ${grantId}` });
  }
}

/**
 * `rde admin <command>`: the operator's way to create workspaces and members and to grant
 * credits, which the public interface does not expose. Prints one JSON object on stdout; returns
 * the exit code (2 = usage).
 */
export async function admin(args: string[], variables: NodeJS.ProcessEnv): Promise<number> {
  const { instance, rest: commandArgs } = instanceOption(args);
  const [command, ...rest] = commandArgs;
  const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) {
    console.error(`usage:\n${ADMIN_USAGE}`);
    return command === undefined ? 0 : 2;
  }
  const opened: { close(): void }[] = [];
  // Retried only where the contract says idempotent (GrantCredits, by its grant id): the RPCs
  // that mint a key are not, so a blind retry never mints two.
  const connect: Connect = (module, definition) => {
    const client = createClient(definition, {
      address: moduleAddress(module, variables, instance),
      deadlineMs: 10_000,
    });
    opened.push(client);
    return client.rpc;
  };
  try {
    console.log(JSON.stringify(await run(rest, connect)));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(`rde admin ${command}: ${error.message}\nusage:\n${ADMIN_USAGE}`);
      return 2;
    }
    if (error instanceof InstanceLookupError) {
      console.error(`rde admin ${command}: ${error.message}`);
      return 1;
    }
    if (error instanceof RdeError) {
      console.error(`rde admin ${command}: ${error.httpStatus} ${JSON.stringify(error.body)}`);
      return 1;
    }
    throw error;
  } finally {
    for (const client of opened) client.close();
  }
}

/** The command's --options as strings; an unknown, valueless or missing required one is a usage error. */
function options<N extends string>(args: string[], names: Record<N, boolean>): Record<N, string> {
  let values: Record<string, string | undefined>;
  try {
    const declared = Object.fromEntries(Object.keys(names).map((name) => [name, { type: 'string' as const }]));
    values = parseArgs({ args, options: declared, strict: true, allowPositionals: false }).values as Record<
      string,
      string
    >;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const missing = (Object.keys(names) as N[]).filter((name) => names[name] && !values[name]);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((name) => `--${name}`).join(', ')}`);
  return values as Record<N, string>;
}

/** `--instance <pid>`, anywhere in the arguments: which running instance every admin command addresses. */
function instanceOption(args: string[]): { instance?: string; rest: string[] } {
  const at = args.indexOf('--instance');
  if (at === -1) return { rest: args };
  return { instance: args[at + 1] ?? '', rest: [...args.slice(0, at), ...args.slice(at + 2)] };
}
