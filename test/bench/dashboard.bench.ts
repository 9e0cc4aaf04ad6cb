/**
 * The dashboard's first load (issue 28): the compressed JavaScript a browser downloads for the
 * home page (goal < 200 KB) and the time from navigation to the home page showing the balance
 * (goal < 1 s), in Debian's chromium against the all-in-one. Prints figures; asserts nothing.
 *
 *   pnpm run build && eval "$(deploy/backends.sh env)" && pnpm exec tsx test/bench/dashboard.bench.ts
 *
 * Needs Mailpit (the person signs in by emailed link). BENCH_LOADS (10) cold loads, each in a fresh
 * profile with only the session cookie.
 */
import type { Browser } from 'playwright-core';
import { startRde, type RunningRde } from '../e2e/harness';
import { freshEmail, signIn } from '../e2e/sign-in';
import { launchBrowser, loopbackContext } from '../browser/browser';

const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One cold load of the home page: encoded script bytes and milliseconds until the balance shows. */
async function coldLoad(browser: Browser, rde: RunningRde, session: string) {
  const context = await loopbackContext(browser);
  await context.addCookies([{ name: 'rde_session', value: session, url: rde.baseUrl }]);
  const page = await context.newPage();
  const scripts: Promise<number>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push(
        response
          .request()
          .sizes()
          .then((sizes) => sizes.responseBodySize),
      );
  });
  const started = performance.now();
  await page.goto(`${rde.baseUrl}/app/`);
  await page.getByTestId('balance').waitFor({ state: 'visible' });
  const renderMs = performance.now() - started;
  const scriptBytes = (await Promise.all(scripts)).reduce((sum, bytes) => sum + bytes, 0);
  await context.close();
  return { renderMs, scriptBytes };
}

async function main(): Promise<void> {
  const [rde, browser] = await Promise.all([startRde(), launchBrowser()]);
  try {
    const { session } = await signIn(rde, freshEmail('bench-dashboard'));
    const loads = [];
    for (let i = 0; i < LOADS; i++) loads.push(await coldLoad(browser, rde, session));
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    console.log(`dashboard bench: ${LOADS} cold loads of /app/ (all-in-one, Debian's chromium)`);
    console.log(`first-load JavaScript, compressed: ${kb(median(loads.map((l) => l.scriptBytes)))} KB (goal < 200 KB)`);
    const times = loads.map((l) => l.renderMs);
    console.log(
      `home rendered (navigation to balance shown): median ${median(times).toFixed(0)} ms, ` +
        `max ${Math.max(...times).toFixed(0)} ms (goal < 1000 ms)`,
    );
  } finally {
    await browser.close();
    await rde.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
