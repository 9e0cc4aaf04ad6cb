import { readFileSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { RunningRde } from '../e2e/harness';
import { linkToken, nthMailTo, signInSecrets } from '../e2e/mail';
import { freshEmail } from '../e2e/sign-in';
import { accessibilityViolations, screenshot, type DashboardSuite } from './browser';

/** Steps a person takes on the dashboard's pages, by their labels and roles as a screen reader reads them. */
export const codeSection = (page: Page) => page.getByRole('region', { name: 'Email me a sign-in code' });
export const passwordSection = (page: Page) => page.getByRole('region', { name: 'Sign in with a password' });
export const signUpSection = (page: Page) =>
  page.getByRole('region', { name: 'Create an account or reset a password' });

/** Opens a dashboard path (or any path the API redirects to it). */
export async function open(page: Page, rde: RunningRde, pathAndQuery: string): Promise<void> {
  await page.goto(`${rde.baseUrl}${pathAndQuery}`);
  // React renders after the load event: a key pressed before its first render lands on the body.
  await page.locator('main').first().waitFor();
}

/** Signs in on the sign-in page by the emailed code (the `nth` mail to the address). */
export async function signInByCode(page: Page, email: string, nth = 1): Promise<void> {
  const section = codeSection(page);
  await section.getByLabel('Email').fill(email);
  await section.getByRole('button', { name: 'Email me a code' }).click();
  expect(await shown(section.getByRole('status'))).toContain(email);
  const { code } = signInSecrets(await nthMailTo(email, nth));
  await section.getByLabel('Code').fill(code);
  await section.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs a fresh owner (or `email`) in by code through the sign-in page, which returns to the page asked for. */
export async function signedIn(
  { page, rde }: Pick<DashboardSuite, 'page' | 'rde'>,
  pathAndQuery: string,
  email = freshEmail('browser-owner'),
): Promise<string> {
  await open(page, rde, `/app/auth/signin?${new URLSearchParams({ next: pathAndQuery })}`);
  await signInByCode(page, email);
  await page.waitForURL(`**${pathAndQuery}`);
  return email;
}

/** The browser's `rde_session` cookie, for the API calls a test makes beside the page. */
export async function sessionOf(context: BrowserContext): Promise<string> {
  return (await context.cookies()).find((cookie) => cookie.name === 'rde_session')!.value;
}

/** Clicks a download link; the file's text. */
export async function downloaded(page: Page, link: Locator): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return readFileSync((await download.path())!, 'utf8');
}

/** The link of the newest set-password email, as the browser opens it. */
export async function setPasswordLink(email: string, nth = 1): Promise<string> {
  const mail = await nthMailTo(email, nth);
  return `/app/auth/set-password?token=${encodeURIComponent(linkToken(mail))}`;
}

/** The page passes axe-core and its screenshot is kept. */
export async function checkPage(page: Page, name: string): Promise<void> {
  expect(await accessibilityViolations(page)).toEqual([]);
  await screenshot(page, name);
}

/** Waits until the element is on screen; its text. */
export async function shown(locator: Locator): Promise<string> {
  await locator.waitFor({ state: 'visible' });
  return (await locator.textContent()) ?? '';
}

/**
 * The status under `scope` once it says `text` (a page can show an earlier status, such as "We emailed a code",
 * until the next answer replaces it); on timeout, whatever status is shown, so the assertion names it.
 */
export async function statusSaying(scope: Page | Locator, text: string): Promise<string> {
  const status = scope.getByRole('status');
  try {
    return await shown(status.filter({ hasText: text }));
  } catch {
    return (await status.allTextContents()).join(' | ');
  }
}

/** Whether the element has the keyboard focus. */
export async function focused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === (element.ownerDocument as { activeElement: unknown }).activeElement);
}

/** What the page's clipboard holds (the context has clipboard permissions). */
export async function clipboardText(page: Page): Promise<string> {
  return page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );
}
