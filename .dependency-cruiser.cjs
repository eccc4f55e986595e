/**
 * Who may import whom (docs/architecture.md draws the same picture). `npm test` runs this with zero violations
 * allowed; every message says what to do instead. Tests and test helpers are exempt: they may look at any table.
 */
const notTest = '(\\.test\\.tsx?$|/testing[^/]*\\.ts$|^tests/)'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'Import cycles make load order and ownership unclear. Break the cycle: move the shared piece down ' +
        '(shared/, server/http, the lower module) or turn the call around through a use case in server/use-cases/.',
      from: { pathNot: notTest },
      to: { circular: true },
    },
    {
      name: 'module-door-only',
      severity: 'error',
      comment:
        "A module is entered through its door (<name>.service.ts): never import another module's repository, " +
        'schema, helpers or routes. Need its data? Add a function to its service. A workflow over several ' +
        'modules? Write a use case in server/use-cases/<verb>-<noun>.ts.',
      from: { path: '^server/modules/([^/]+)/', pathNot: notTest },
      to: {
        path: '^server/modules/',
        pathNot: ['^server/modules/$1/', '^server/modules/[^/]+/[^/]+\\.service\\.ts$'],
      },
    },
    {
      name: 'no-tables-outside-modules',
      severity: 'error',
      comment:
        'Use cases and infrastructure never read or write tables. Call a service of the module that owns the ' +
        "table; if the query is missing, add it to that module's <module>.repository.ts.",
      from: { path: '^server/(use-cases|http|integrations)/', pathNot: notTest },
      to: { path: '^server/db/schema/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'tables-belong-to-their-module',
      severity: 'error',
      comment:
        'A module owns the tables in server/db/schema/<module>.ts and no others. Call the owning module’s ' +
        'service instead (add a function to it if needed); never join or write another module’s table.',
      from: { path: '^server/modules/([^/]+)/', pathNot: notTest },
      to: { path: '^server/db/schema/', pathNot: '^server/db/schema/$1\\.ts$' },
    },
    {
      name: 'jobs-own-the-queue',
      severity: 'error',
      comment: 'The job queue table belongs to server/jobs; modules enqueue through server/jobs/jobs.repository.ts.',
      from: { path: '^server/jobs/', pathNot: [notTest, '^server/jobs/jobs\\.repository\\.ts$'] },
      to: { path: '^server/db/schema/' },
    },
    {
      name: 'only-repositories-query',
      severity: 'error',
      comment:
        'Only repositories talk to the database. Services and routes receive a transaction handle as a type ' +
        '(import type { DbOrTx }) and pass it to a repository; move the query into <module>.repository.ts.',
      from: {
        path: '^server/(modules|use-cases)/',
        pathNot: [notTest, '\\.repository\\.ts$'],
      },
      to: { path: '(^server/db/database\\.ts$|drizzle-orm)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'modules-do-not-import-the-composition-root',
      severity: 'error',
      comment:
        'The composition root (server/app.ts, main.ts, routes.ts, services*.ts, page-services.ts) wires modules ' +
        'together; a module never imports it, not even a type. A routes plugin or job declares its own options, ' +
        "typed by what it uses: its module's service, a use case bound to its dependencies (Bound<typeof " +
        'useCase> from server/use-cases/commerce-deps.ts), a function signature; the composition root passes ' +
        'them in.',
      from: { path: '^server/modules/', pathNot: notTest },
      to: { path: '^server/(app|main|routes|services[^/]*|page-services)\\.ts$' },
    },
    {
      name: 'use-cases-call-doors',
      severity: 'error',
      comment:
        "A use case runs modules' services inside one transaction: import <module>.service.ts, never a " +
        'repository or internal file.',
      from: { path: '^server/use-cases/', pathNot: notTest },
      to: { path: '^server/modules/[^/]+/(?![^/]+\\.service\\.ts$)' },
    },
    {
      name: 'modules-do-not-call-use-cases',
      severity: 'error',
      comment:
        'Use cases sit above modules. Only route files (<module>.routes.ts), jobs and the composition root call ' +
        'them; a service that needs one is doing a use case’s job: move that code into the use case.',
      from: { path: '^server/modules/', pathNot: [notTest, '\\.routes\\.ts$'] },
      to: { path: '^server/use-cases/' },
    },
    {
      name: 'infrastructure-below-modules',
      severity: 'error',
      comment:
        'server/http, server/db and server/integrations are the floor the modules stand on; they must not ' +
        'reach up into a module. Pass what they need in (a function or an interface) from server/services.ts.',
      from: { path: '^server/(http|db|integrations)/', pathNot: [notTest, '^server/db/seed'] },
      to: { path: '^server/(modules|use-cases)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-is-shared',
      severity: 'error',
      comment:
        'shared/ is used by server and browser alike: it may import only other shared/ files and small ' +
        'libraries, never server/ or app/.',
      from: { path: '^shared/' },
      to: { path: '^(server|app)/' },
    },
    {
      name: 'browser-never-imports-server-code',
      severity: 'error',
      comment:
        'The browser bundle must not pull in server code. Import API types type-only (import type …) from a ' +
        "module's <name>.schema.ts, or use shared/ for code both sides run.",
      from: { path: '^app/', pathNot: [notTest, '\\.server\\.tsx?$'] },
      to: { path: '^server/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'app-shared-does-not-import-features',
      severity: 'error',
      comment:
        'app/components and app/lib are shared by every screen; they must not import a route module. Move the ' +
        'piece you need into app/components or app/lib.',
      from: { path: '^app/(components|lib)/', pathNot: notTest },
      to: { path: '^app/routes/' },
    },
    {
      name: 'app-features-stay-apart',
      severity: 'error',
      comment:
        'One screen area (app/routes/<area>) does not import another. Move what both need into app/components ' +
        '(UI) or app/lib (logic).',
      from: { path: '^app/routes/([^/]+)/', pathNot: notTest },
      to: { path: '^app/routes/', pathNot: '^app/routes/$1/' },
    },
    {
      name: 'contract-pdf-loads-when-used',
      severity: 'error',
      comment:
        'contract-pdf.ts brings pdf-lib, fontkit and HarfBuzz, which the server loads on the first signature, not ' +
        'at start (docs/performance.md). Import it with import(), or its types with import type; it stays the only ' +
        'file that imports those libraries.',
      from: { pathNot: notTest },
      to: { path: '^server/modules/tuition/contract-pdf\\.ts$', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 's3-loads-when-used',
      severity: 'error',
      comment:
        'The AWS SDK and @tus/s3-store serve STORAGE=s3 only: they load when object storage is configured, not at ' +
        'start, so processes on local folders do not keep them in their heap (4 MB). Import s3.ts and ' +
        '@tus/s3-store with import(), or their types with import type; s3.ts stays the only file that imports the ' +
        'AWS SDK.',
      from: { pathNot: [notTest, '^server/integrations/storage/s3\\.ts$'] },
      to: {
        path: ['^server/integrations/storage/s3\\.ts$', '^node_modules/(@aws-sdk|@smithy|@tus/s3-store)/'],
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      // Packages are left out of the graph, but for those a rule names (s3-loads-when-used).
      path:
        '^(build|\\.react-router|node_modules(?!/(@aws-sdk|@smithy|@tus/s3-store)/)|\\.node|data|public|' +
        'server/db/migrations|server/db/demo-media)',
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
}
