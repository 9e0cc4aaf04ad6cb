// The service skeleton's import rules (issue 24, decision 0061), run by `pnpm run lint`.
const { readdirSync, readFileSync } = require('node:fs');

// The gRPC services are the ones with a contract in proto/rde/<service>; the skeleton applies to them.
const grpcServices = readdirSync(`${__dirname}/proto/rde`).filter((name) => name !== 'common');
const SERVICE = `^services/(${grpcServices.join('|')})/src/`;
// Every TypeScript project under services/ (the root tsconfig's references); other folders (the
// dashboard's assets, the Python CLI) are not cruised.
const tsServices = JSON.parse(readFileSync(`${__dirname}/tsconfig.json`, 'utf8'))
  .references.map(({ path }) => /^services\/([^/]+)$/.exec(path)?.[1])
  .filter(Boolean);
// Folders that do I/O or face the outside: a domain/ file imports none of them.
const OUTER = '(store|app|grpc|clients|events|jobs)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Two modules importing each other are one module: cut the shared part into its own file.',
      severity: 'error',
      from: { path: '^services/' },
      to: { circular: true },
    },
    {
      name: 'no-service-imports-another',
      comment:
        'Services talk through proto/ contracts; only services/platform (the kit) is shared, and services/cli ' +
        '(@rde/client), whose reproducible build of the client the catalog serves, is a library, not a service.',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: '^services/rde/' },
      to: { path: '^services/', pathNot: ['^services/$1/', '^services/platform/', '^services/cli/'] },
    },
    {
      name: 'no-service-package-imports',
      comment: 'The same, for a service package not built yet (unresolved, so it has no path under services/).',
      severity: 'error',
      from: { path: '^services/', pathNot: '^services/rde/' },
      to: { couldNotResolve: true, path: '^@rde/(?!platform$|proto$|client$)' },
    },
    {
      name: 'composition-root-imports-module-entries',
      comment: 'services/rde registers modules: it reaches a service through its index only.',
      severity: 'error',
      from: { path: '^services/rde/' },
      to: {
        path: '^services/(?!rde/|platform/)[^/]+/',
        pathNot: '^services/[^/]+/(src|dist)/index\\.(ts|js|d\\.ts)$',
      },
    },
    {
      name: 'domain-is-pure',
      comment: 'domain/ holds rules: it never reaches store, app, grpc, clients, events or jobs.',
      severity: 'error',
      from: { path: `${SERVICE}domain/` },
      to: { path: `^services/$1/src/${OUTER}` },
    },
    {
      name: 'domain-does-no-io',
      comment: 'domain/ is pure: no network, file or process access.',
      severity: 'error',
      from: { path: `${SERVICE}domain/` },
      to: {
        dependencyTypes: ['core', 'npm', 'npm-dev'],
        path: '^(fs|fs/promises|net|http|https|http2|tls|dns|dgram|child_process|mongodb|kafkajs|ioredis|stripe|nodemailer)$',
      },
    },
    {
      name: 'features-meet-at-their-index',
      comment:
        'app/ is cut by feature (app/<feature>/, issue 24): a feature reaches another only through its index.ts, ' +
        'never its internals.',
      severity: 'error',
      from: { path: `${SERVICE}app/([^/]+)/` },
      to: {
        path: '^services/$1/src/app/[^/]+/',
        pathNot: ['^services/$1/src/app/$2/', '^services/$1/src/app/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'app-does-not-wire',
      comment:
        'Wiring is the module index.ts: a use case never reaches the module, its config or the background ' +
        'executors of jobs/ (they call use cases, not the other way round).',
      severity: 'error',
      from: { path: `${SERVICE}app/` },
      to: { path: '^services/$1/src/(jobs/|index\\.ts$|config\\.ts$)' },
    },
    {
      name: 'app-builds-no-public-views',
      comment: 'Public views are built in grpc/ (proto ⇄ domain); a use case returns domain values.',
      severity: 'error',
      from: { path: `${SERVICE}app/` },
      to: { path: `^services/$1/src/grpc/` },
    },
  ],
  options: {
    // A service's package resolves to its build (dist/): seen as a dependency, never cruised.
    doNotFollow: { path: ['node_modules', '/dist/'] },
    exclude: { path: `^services/(?!(${tsServices.join('|')})/)` },

    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
