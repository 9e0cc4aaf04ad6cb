import type { mcpOAuth } from '@rde/proto';

/**
 * The consent page: who asks, for which account, and the workspace the grant will act for. The
 * form posts back to the authorization endpoint with the same parameters; the session cookie
 * (SameSite=Lax) is the identity, so a cross-site post arrives without it.
 */
export function consentPage(consent: mcpOAuth.ConsentView, parameters: Record<string, string>, action: string): string {
  const client = escape(consent.clientName || consent.clientId);
  const hidden = Object.entries(parameters)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n      ');
  const options = consent.workspaces
    .map(
      (workspace) =>
        `<option value="${escape(workspace.id)}">${escape(workspace.name)} (${escape(workspace.role)})</option>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Authorize ${client} — RDE</title>
  </head>
  <body>
    <h1>Authorize ${client}</h1>
    <p>${client} asks to use RDE's MCP tools as <strong>${escape(consent.userEmail)}</strong>. Its paid calls
      spend the chosen workspace's credits. It will return to <code>${escape(consent.redirectUri)}</code>.</p>
    <form method="post" action="${escape(action)}">
      ${hidden}
      <label>Workspace <select name="workspace_id">${options}</select></label>
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </form>
  </body>
</html>
`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ENTITIES[character]);
}
