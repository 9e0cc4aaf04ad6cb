import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { api } from '../api/client';
import { answered, ApiError } from '../api/call';
import type { ApiProblem } from '../api/errors';
import { Problem } from '../components/Problem';

type ConsentView = Awaited<ReturnType<typeof consentOf>>;

/** Where the consent page's decision goes: the authorization endpoint, which redirects to the client. */
const AUTHORIZE = '/api/v2/mcp/oauth/authorize';

function consentOf(search: string) {
  const query = Object.fromEntries(new URLSearchParams(search));
  return answered(api.GET('/api/v2/mcp/oauth/consent', { params: { query } }));
}

/**
 * An MCP client asks to act for this person (decision 0078): who asks, where the answer goes, what
 * it may do, and for which workspace. Approve and Deny post a plain form to the authorization
 * endpoint, whose answer redirects the browser to the client; the session cookie is the identity.
 */
export function McpConsent() {
  const search = useSearch();
  const [view, setView] = useState<ConsentView>();
  const [problem, setProblem] = useState<ApiProblem>();
  useEffect(() => {
    consentOf(search).then(setView, (failure: unknown) =>
      setProblem(failure instanceof ApiError ? failure.problem : { message: 'RDE could not be reached.' }),
    );
  }, [search]);

  const client = view ? view.client_name || view.client_id : 'an application';
  return (
    <main>
      <h1>Authorize {client}</h1>
      {problem?.status === 401 ? (
        <p>
          <a href={`/app/auth/signin?${new URLSearchParams({ next: `/app/oauth/consent?${search}` })}`}>
            Sign in to review this request
          </a>
        </p>
      ) : (
        <Problem problem={problem} />
      )}
      {view && <ConsentForm view={view} client={client} />}
    </main>
  );
}

function ConsentForm({ view, client }: { view: ConsentView; client: string }) {
  return (
    <form method="post" action={AUTHORIZE}>
      <p>
        {client} asks to use RDE as <strong>{view.user_email}</strong>. Its paid calls spend the chosen workspace’s
        credits.
      </p>
      <dl className="summary">
        <dt>Client</dt>
        <dd>{view.client_id}</dd>
        <dt>Returns to</dt>
        <dd>
          <strong>{new URL(view.redirect_uri).host}</strong> (<code>{view.redirect_uri}</code>)
        </dd>
        <dt>Access</dt>
        {view.scopes.map((scope) => (
          <dd key={scope.name}>
            <code>{scope.name}</code>: {scope.description}
          </dd>
        ))}
      </dl>
      {Object.entries(view.parameters).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label className="field">
        <span>Workspace</span>
        <select name="workspace_id">
          {view.workspaces.map((workspace) => (
            <option key={workspace.id} value={workspace.id}>
              {workspace.name} ({workspace.role})
            </option>
          ))}
        </select>
      </label>
      <p className="actions">
        <button type="submit" name="decision" value="approve">
          Approve
        </button>{' '}
        <button type="submit" name="decision" value="deny" className="secondary">
          Deny
        </button>
      </p>
    </form>
  );
}
