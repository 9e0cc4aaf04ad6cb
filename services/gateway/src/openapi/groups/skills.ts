import type { OperationGroup } from '../operation-docs';

/** A package whose `name` is `name`. */
const packageNamed = (name: string) => ({
  'SKILL.md': `---\nname: ${name}\ndescription: How our team writes first messages to candidates.\n---\n\n# Outreach tone\n\nShort, specific, no buzzwords.\n`,
});

export const skills: OperationGroup = {
  tag: 'Skills',
  about:
    "Agent skills: RDE's own skill packages for discovery (`npx skills add <url>` installs them), and a " +
    "workspace's custom skills with numbered versions; a team skill's versions go live when the owner approves.",
  operations: {
    'GET /SKILL.md': {
      summary: 'The setup skill',
      spec: 'Bootstrap and distribution, GET /SKILL.md',
      does: 'The setup skill as markdown: keys, first calls, costs, dry runs, sessions. Public; ETag and If-None-Match (304).',
    },
    'GET /api/v2/versions': {
      summary: 'Content hashes of the skills and the CLI',
      spec: 'Bootstrap and distribution, GET /api/v2/versions; Versioning, rule 4',
      does: "`skills.sha256` is the skill catalog's version (the index's `version`); `cli` is null until CLI releases are published. Public.",
    },
    'GET /api/v2/skills/bundle': {
      summary: 'Every skill package in one tarball',
      spec: 'Bootstrap and distribution, GET /api/v2/skills/bundle',
      does: 'A deterministic gzip tarball with one folder per package. Public.',
    },
    'GET /.well-known/skills/index.json': {
      summary: 'The skill discovery index',
      spec: 'Bootstrap and distribution, GET /.well-known/skills/index.json; Versioning, rule 5',
      does: 'Agent-skills discovery 0.2.0: each package with its archive URL and `sha256:` digest, files and entrypoint. Public.',
    },
    'GET /.well-known/agent-skills/index.json': {
      summary: 'The skill discovery index (0.2.0 path)',
      spec: 'Bootstrap and distribution, GET /.well-known/skills/index.json (served at the final draft path too)',
      does: 'The same index at the path the final 0.2.0 draft names, which clients try first. Public.',
    },
    'GET /.well-known/skills/archives/{name}.tar.gz': {
      summary: "A skill package's archive",
      spec: 'Bootstrap and distribution, GET /.well-known/skills/archives/{name}.tar.gz',
      does: "The package's deterministic .tar.gz (SKILL.md at its root), matching the index digest; unknown name 404. Public.",
      params: { name: 'rde' },
    },
    'GET /.well-known/skills/{name}/{*}': {
      summary: 'One file of a skill package',
      spec: 'Bootstrap and distribution, GET /.well-known/skills/{name}/{rel_path}',
      does: "One file as text; only the package's own files are served (anything else is 404). Public; ETag and 304.",
      params: { name: 'rde', '*': 'references/sessions.md' },
    },
    'GET /api/v2/workspace/skills': {
      summary: "The workspace's custom skills",
      spec: 'Custom skills, GET /api/v2/workspace/skills; Resources, Custom skill',
      does: 'The skills the caller can see, with live, latest and pending versions. Needs a signed-in user (403).',
    },
    'POST /api/v2/workspace/skills': {
      summary: 'Create a custom skill',
      spec: 'Custom skills, POST /api/v2/workspace/skills; States, skill versions',
      does: "A personal skill is live at once; a member's team skill waits for the owner. 400 invalid package, 409 name taken or 200 skills.",
      body: { scope: 'org', files: packageNamed('team-outreach-tone') },
    },
    'GET /api/v2/workspace/skills/{skill_id}': {
      summary: 'A custom skill with its files',
      spec: 'Custom skills, GET /api/v2/workspace/skills/{skill_id}; Versioning, rule 3',
      does: 'The live version by default, or `version`; unapproved team versions only for their author and the owner.',
    },
    'PUT /api/v2/workspace/skills/{skill_id}': {
      summary: 'Save a new version',
      spec: 'Custom skills, PUT /api/v2/workspace/skills/{skill_id}; States, skill versions',
      does: "The whole package; `changed: false` when it equals the latest version. 409 while another member's version waits.",
      body: { files: packageNamed('outreach-tone') },
    },
    'POST /api/v2/workspace/skills/{skill_id}/versions/{version}/approve': {
      summary: 'Approve a team version',
      spec: 'Custom skills, POST …/versions/{version}/approve; States, team skill version',
      does: 'Owner only: the pending version goes live. 409 when it is not pending.',
      body: { note: 'Looks good' },
    },
    'POST /api/v2/workspace/skills/{skill_id}/versions/{version}/reject': {
      summary: 'Reject a team version',
      spec: 'Custom skills, POST …/versions/{version}/reject; States, team skill version',
      does: 'Owner only: the pending version is rejected. 409 when it is not pending.',
      body: { note: 'Please cite the source' },
    },
    'DELETE /api/v2/workspace/skills/{skill_id}': {
      summary: 'Delete a custom skill',
      spec: 'Custom skills, DELETE /api/v2/workspace/skills/{skill_id}',
      does: 'Deletes it with every version: `{ok: true, deleted: <id>}`. Its author, or the owner for a team skill.',
    },
  },
};
