import { api } from '../e2e/api';
import { waitUntil } from '../e2e/harness';
import { newTeam } from '../e2e/teams';
import { dashboardSuite } from './browser';
import { checkPage, focused, shown, signedIn } from './pages';

jest.setTimeout(180_000);

/** A pattern matching `text` as written. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How long a gateway may keep trusting a resolved key (RDE_BEARER_CACHE_MS), with room for a slow machine. */
const BEARER_CACHE_WAIT_MS = 12_000;

/** The members page's owner controls: a role changed, a member removed after confirming (decision 0087). */
describe('Dashboard: removing members and changing roles in a real browser (all-in-one)', () => {
  const suite = dashboardSuite();
  const members = () => suite.page.getByRole('region', { name: 'Members' });
  /** A team made by the operator: its owner's and member's first workspace, so signing in lands there. */
  const team = async () => {
    const made = await newTeam(suite.rde, 'browser-members');
    const memberEmail = (await api(suite.rde, 'GET', '/api/v2/me', { key: made.member })).body.user.email as string;
    return { ...made, memberEmail };
  };
  const roleOf = async (key: string, userId: string) =>
    (await api(suite.rde, 'GET', '/api/v2/workspaces/members/spend-caps', { key })).body.members.find(
      (row: { user_id: string }) => row.user_id === userId,
    )?.role;

  test('an owner changes a member’s role and removes them after confirming; the removed member’s key then gets 401', async () => {
    const t = await team();
    await signedIn(suite, '/app/members', t.ownerEmail);
    const row = members().getByRole('row', { name: new RegExp(literally(t.memberEmail)) });
    await shown(row);

    // The last owner demoting themselves is refused in the API's words.
    await members()
      .getByRole('combobox', { name: `Role of ${t.ownerEmail}`, exact: true })
      .selectOption('member');
    await members()
      .getByRole('button', { name: `Save the role of ${t.ownerEmail}` })
      .click();
    expect(await shown(members().getByRole('alert'))).toBe(
      "This is the workspace's last owner: make another member an owner first",
    );

    await members()
      .getByRole('combobox', { name: `Role of ${t.memberEmail}`, exact: true })
      .selectOption('owner');
    await members()
      .getByRole('button', { name: `Save the role of ${t.memberEmail}` })
      .click();
    expect(await shown(members().getByRole('status'))).toBe(`${t.memberEmail} is now an owner.`);
    expect(await roleOf(t.owner, t.memberId)).toBe('owner');

    // Remove asks first; Cancel changes nothing.
    await row.getByRole('button', { name: `Remove ${t.memberEmail}` }).click();
    const confirmation = members().getByRole('group', { name: new RegExp(`^Remove ${literally(t.memberEmail)}`) });
    const confirm = confirmation.getByRole('button', { name: `Yes, remove ${t.memberEmail}` });
    await shown(confirm);
    await checkPage(suite.page, 'members-remove');
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    expect(await confirmation.count()).toBe(0);
    expect(await roleOf(t.owner, t.memberId)).toBe('owner');

    // The confirming button has the focus: Enter removes.
    await row.getByRole('button', { name: `Remove ${t.memberEmail}` }).click();
    expect(await focused(confirm)).toBe(true);
    await suite.page.keyboard.press('Enter');
    expect(await shown(members().getByRole('status'))).toBe(`${t.memberEmail} was removed from the workspace.`);
    await row.waitFor({ state: 'detached' });
    expect(await roleOf(t.owner, t.memberId)).toBeUndefined();
    await waitUntil(
      async () => (await api(suite.rde, 'GET', '/api/v2/me', { key: t.member })).status === 401,
      BEARER_CACHE_WAIT_MS,
    );
  });

  test('a member sees the list without role or remove controls', async () => {
    const t = await team();
    await signedIn(suite, '/app/members', t.memberEmail);
    const mine = members().getByRole('row', { name: /\(you\)/ });
    expect(await shown(mine)).toMatch(new RegExp(`^${literally(t.memberEmail)} \\(you\\)member`));
    await shown(
      suite.page.getByText('Only the workspace owner can invite members, change their caps and roles, or remove them.'),
    );
    expect(await members().getByRole('combobox').count()).toBe(0);
    expect(await members().getByRole('button').count()).toBe(0);
    await checkPage(suite.page, 'members-member');
    expect(await roleOf(t.owner, t.memberId)).toBe('member');
  });
});
