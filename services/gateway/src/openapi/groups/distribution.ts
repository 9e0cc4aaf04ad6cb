import type { OperationGroup } from '../operation-docs';

export const distribution: OperationGroup = {
  tag: 'Distribution',
  about:
    'Getting started: the `rde` command-line client (immutable, version-addressable releases, each with its ' +
    'SHA-256, and a one-line install script), a package-registry proxy, onboarding recipes, reference tables ' +
    'and brand assets. All public.',
  operations: {
    'GET /api/v2/cli/releases': {
      summary: 'List the client releases',
      spec: 'Bootstrap and distribution, GET /api/v2/cli/releases; Versioning, rule 4',
      does: 'The latest version, the oldest supported one and every release, newest first, with its SHA-256 and download URL.',
    },
    'GET /cli/version': {
      summary: 'The latest client release',
      spec: 'Bootstrap and distribution, GET /cli/version',
      does: "The self-update target: the latest release's version, SHA-256 and download URL, and `min_cli_version`.",
    },
    'GET /api/v2/cli/install': {
      summary: 'The install script',
      spec: 'Bootstrap and distribution, GET /api/v2/cli/install',
      does: 'A POSIX shell script that downloads the latest client, checks its SHA-256 and installs it: `curl -fsSL <url> | sh`.',
    },
    'GET /cli/install': {
      summary: 'The install script (short path)',
      spec: 'Bootstrap and distribution, GET /cli/install',
      does: 'The same script as GET /api/v2/cli/install.',
    },
    'GET /cli/{cli_artifact}.pyz': {
      summary: 'Download the latest client',
      spec: 'Bootstrap and distribution, GET /cli/{cli_artifact}.pyz',
      does: 'The latest `rde.pyz`, a Python zipapp (python3 3.9 or newer).',
      params: { cli_artifact: 'rde' },
    },
    'GET /cli/v{version}/{cli_artifact}.pyz': {
      summary: 'Download a client release',
      spec: 'Bootstrap and distribution, GET /cli/v{version}/{cli_artifact}.pyz; Versioning, rule 4',
      does:
        'One release, always the same bytes. Older releases come from the release store, checked against their ' +
        'recorded SHA-256 first (502 on a mismatch, nothing served). An unknown version is 404.',
      params: { cli_artifact: 'rde', version: '0.2.0' },
    },
    'GET /api/v2/npm/{package_name}': {
      summary: 'A package document (npm proxy)',
      spec: 'Bootstrap and distribution, GET /api/v2/npm/<package_name>',
      does:
        'For the packages this service serves: the registry document with each dist.tarball pointing here; ' +
        'shasum, integrity and dist-tags untouched. Others are 404.',
    },
    'GET /api/v2/npm/{package_name}/-/{file}': {
      summary: 'A package tarball (npm proxy)',
      spec: 'Bootstrap and distribution, GET /api/v2/npm/<package_name>/-/<package_name>-{version}.tgz',
      does: 'The tarball byte for byte; the name and version shape are checked before the registry is asked.',
    },
    'GET /api/v2/recipes': {
      summary: 'Onboarding recipes',
      spec: 'Bootstrap and distribution, GET /api/v2/recipes',
      does: 'Recipe cards for first tasks, each a list of requests that can be sent as they are.',
    },
    'GET /api/v2/reference/onet/{name}': {
      summary: 'A reference table',
      spec: 'Bootstrap and distribution, GET /api/v2/reference/onet/{name}',
      does:
        '`titles` or `occupations` as markdown: job titles mapped to O*NET-SOC occupations, source stated. ' +
        'Sends an ETag; If-None-Match with it answers 304.',
      params: { name: 'titles' },
    },
    'GET /brand/{name}': {
      summary: 'A brand asset',
      spec: 'Bootstrap and distribution, GET /brand/{name}',
      does: 'An allowlisted asset referenced by emails (`logo.svg`, `mark.svg`); any other name is 404.',
      params: { name: 'logo.svg' },
    },
  },
};
