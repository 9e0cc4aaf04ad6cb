import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startRde, type RunningRde } from '../e2e/harness';

/**
 * Debian's chromium driven by playwright-core (decision 0068): no browser download, every request
 * that leaves loopback aborted, axe-core checks and screenshots on the pages a test visits.
 */
const EXECUTABLE = process.env.RDE_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(__dirname, 'screenshots');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export async function launchBrowser(): Promise<Browser> {
  // Root in a container has no user namespaces for chromium's sandbox.
  return chromium.launch({ executablePath: EXECUTABLE, args: ['--no-sandbox'] });
}

/** A fresh profile (no cookies) whose requests off loopback fail, as if the machine had no network. */
export async function loopbackContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.route('**/*', (route) =>
    LOOPBACK.has(new URL(route.request().url()).hostname) ? route.continue() : route.abort('blockedbyclient'),
  );
  return context;
}

/** A page that records what the console said: a CSP refusal or a script error fails the test that reads it. */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; complaints: string[] }> {
  const page = await context.newPage();
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) complaints.push(message.text());
  });
  page.on('pageerror', (error) => complaints.push(error.message));
  return { page, complaints };
}

/**
 * axe-core's violations on the page as it is now (WCAG 2 A and AA). The script is evaluated over
 * the DevTools protocol, which the page's CSP does not govern, so the CSP under test stays strict.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (o: object) => Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run({ runOnly: ['wcag2a', 'wcag2aa', 'best-practice'] })).violations;
  });
  return violations.map(({ id, help, nodes }) => `${id}: ${help} (${nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

interface Violation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

/** A full-page screenshot into the artifact folder (gitignored), named for the page. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** What a browser suite's tests use: one RDE and one browser per file, a fresh profile per test. */
export interface DashboardSuite {
  rde: RunningRde;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors of the current test (a test may clear what it caused on purpose). */
  complaints: string[];
}

type Env = Record<string, string>;

/**
 * Registers the suite's hooks: starts RDE (all-in-one, with `env`, or what `env()` answers when a
 * setting needs a port reserved first) and the browser once, opens a fresh loopback-only profile (no
 * cookies) before each test and fails a test whose page complained.
 */
export function dashboardSuite(env: Env | (() => Promise<Env>) = {}): DashboardSuite {
  const suite = {} as DashboardSuite;
  beforeAll(async () => {
    const settings = typeof env === 'function' ? await env() : env;
    [suite.rde, suite.browser] = await Promise.all([startRde(settings), launchBrowser()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.rde?.stop();
  });
  beforeEach(async () => {
    suite.context = await loopbackContext(suite.browser);
    await suite.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.rde.baseUrl });
    ({ page: suite.page, complaints: suite.complaints } = await watchedPage(suite.context));
  });
  afterEach(async () => {
    expect(suite.complaints).toEqual([]);
    await suite.context.close();
  });
  return suite;
}
