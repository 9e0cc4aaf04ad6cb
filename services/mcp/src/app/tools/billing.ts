import { publicJson, publicRoutes } from '@rde/proto';
import { object, type McpTool } from './tool';

/** The workspace's credits (spec "Billing"): a read. */
export const BILLING_TOOLS: readonly McpTool[] = [
  {
    name: 'get_balance',
    title: 'Credit balance',
    description: `The workspace credit balance, reserved and available credits (GET ${publicRoutes.ROUTES.balance}).`,
    inputSchema: object({}),
    spends: false,
    async run(clients, caller) {
      const { account } = await clients.billing.getBalance({ recent: 0 }, { caller });
      const [balance, reserved, available] = [account?.balance, account?.reserved, account?.available].map(
        (amount) => publicJson.credits(amount) ?? 0,
      );
      return { balance, reserved, available, _meta: { balance: available, reserved, settled: !account?.openHolds } };
    },
  },
];
