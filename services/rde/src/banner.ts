import { randomBytes } from 'node:crypto';

/** A fresh dev key for the banner to show; auth takes it as RDE_DEV_API_KEY (its well-formed shape). */
export function freshDevKey(): string {
  return `rde_live_${randomBytes(24).toString('base64url')}`;
}

export interface BannerFacts {
  /** The gateway's address as `rde start` reached it. */
  readonly gatewayUrl: string;
  /** The dev workspace owner's key, when this process knows it. */
  readonly devKey?: string;
  /** true when the key came from RDE_DEV_API_KEY (stable across restarts). */
  readonly devKeyConfigured: boolean;
  /** true with the embedded adapters: nothing survives the process. */
  readonly inMemory: boolean;
}

/** The dev workspace's balance, read through the public interface like any client. */
async function devBalance(gatewayUrl: string, key: string): Promise<string> {
  try {
    const response = await fetch(`${gatewayUrl}/billing/balance`, { headers: { authorization: `Bearer ${key}` } });
    const { balance } = (await response.json()) as { balance?: number };
    return typeof balance === 'number' ? `${balance} credits` : `unknown (HTTP ${response.status})`;
  } catch (error) {
    return `unknown (${(error as Error).message})`;
  }
}

/** The few lines a person at a terminal needs to make a first call. */
export async function banner(facts: BannerFacts): Promise<string> {
  const url = facts.gatewayUrl.replace('127.0.0.1', 'localhost');
  const lines = ['', 'RDE is running', `  API      ${url}`, `  docs     ${url}/docs`];
  if (facts.devKey) {
    const stability = facts.devKeyConfigured
      ? 'from RDE_DEV_API_KEY'
      : 'new on every start; set RDE_DEV_API_KEY=<this key> to keep it';
    lines.push(
      `  dev key  ${facts.devKey}  (${stability})`,
      `  balance  ${await devBalance(facts.gatewayUrl, facts.devKey)} in the dev workspace`,
      `  try      curl -H "Authorization: Bearer ${facts.devKey}" ${url}/billing/balance`,
    );
  } else {
    lines.push('  dev key  shown once, on the first start; set RDE_DEV_API_KEY to choose it');
  }
  if (facts.inMemory) lines.push('  in memory: data is lost on restart');
  return `${lines.join('\n')}\n`;
}
