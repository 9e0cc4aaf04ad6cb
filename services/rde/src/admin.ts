import { parseArgs } from 'node:util';
import { ConfigError, createClient, RdeError, type ServiceClient } from '@rde/platform';
import { auth } from '@rde/proto';
import { InstanceLookupError, moduleAddress } from './instances';

export const ADMIN_USAGE = `  rde admin create-workspace --email <email> [--name <name>]
  rde admin add-member --workspace <id> --email <email> [--role member|owner]
  rde admin remove-member --workspace <id> --email <email>
      call the auth service at RDE_AUTH_ADDR, else of the running \`rde start\` on this machine
      (--instance <pid> chooses when several run); print one JSON object with the ids (and a new
      key's plaintext, shown this once)`;

type AuthRpc = ServiceClient<typeof auth.AuthServiceService>['rpc'];

class UsageError extends Error {}

const COMMANDS: Record<string, (args: string[], rpc: AuthRpc) => Promise<Record<string, string>>> = {
  async 'create-workspace'(args, rpc) {
    const { email, name = '' } = options(args, { email: true, name: false });
    const created = await rpc.createWorkspace({ ownerEmail: email, name, keyPlaintext: '' });
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
  async 'add-member'(args, rpc) {
    const { workspace, email, role = 'member' } = options(args, { workspace: true, email: true, role: false });
    const added = await rpc.addMember({ workspaceId: workspace, email, role });
    return {
      workspace_id: workspace,
      user_id: added.user!.id,
      email: added.user!.email,
      role: added.role,
      key_id: added.key!.id,
      key: added.keyPlaintext,
    };
  },
  async 'remove-member'(args, rpc) {
    const { workspace, email } = options(args, { workspace: true, email: true });
    const { user } = await rpc.removeMember({ workspaceId: workspace, email });
    return { workspace_id: workspace, user_id: user!.id, email: user!.email };
  },
};

/**
 * `rde admin <command>`: the operator's way to create workspaces and members, which the public
 * interface does not expose. Prints one JSON object on stdout; returns the exit code (2 = usage).
 */
export async function admin(args: string[], variables: NodeJS.ProcessEnv): Promise<number> {
  const { instance, rest: commandArgs } = instanceOption(args);
  const [command, ...rest] = commandArgs;
  const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) {
    console.error(`usage:\n${ADMIN_USAGE}`);
    return command === undefined ? 0 : 2;
  }
  try {
    // Not retried: each command mints a key, so a blind retry could mint two.
    const client = createClient(auth.AuthServiceService, {
      address: moduleAddress('auth', variables, instance),
      deadlineMs: 10_000,
    });
    try {
      console.log(JSON.stringify(await run(rest, client.rpc)));
    } finally {
      client.close();
    }
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
