// @ts-check
// The import rules of src/: the layers of layers.config.cjs (nothing imports a higher rank, not even a type),
// no run-time cycle, and the API's route handlers imported by createEmulator alone.
const { LAYERS } = require('./layers.config.cjs');

/** @param {string} text */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** @param {string[]} dirs */
const pathOf = (dirs) => `^src/(${dirs.map(escapeRegExp).join('|')})(/|$)`;

/** One rule per layer: nothing in it imports a folder of a higher rank. */
const upward = LAYERS.filter((layer) => LAYERS.some((other) => other.rank > layer.rank)).map((layer) => ({
  name: `layer-${layer.dir}`,
  comment: `src/${layer.dir} (rank ${layer.rank}) imports only its own rank or lower`,
  severity: 'error',
  from: { path: pathOf([layer.dir]) },
  to: { path: pathOf(LAYERS.filter((other) => other.rank > layer.rank).map((other) => other.dir)) },
}));

/** The modules every command line loads (src/cli/program.ts imports each command file when it runs). */
const CLI_ENTRY = `^src/(${[
  'cli/main',
  'cli/program',
  'cli/io',
  'cli/report-error',
  'cli/help',
  'cli/errors',
  'cli/exit-codes',
  'cli/global-options',
  'cli/http-url',
  'cli/option-env',
  'client/http',
  'client/node-request',
  'util/caught',
  'util/package-root',
  'util/executable',
].join('|')})[.]ts$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-runtime-cycle',
      comment: 'no run-time import cycle (an edge of type imports only is erased at build time)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'route-handlers-are-leaves',
      comment:
        "only createEmulator mounts the API's handlers (src/emulator/routes/); what another face shares with them (the console's views, refusals, validation) lives in the emulator's domain or the contract",
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/emulator/routes/', '^src/emulator/create-emulator[.]ts$'] },
      to: { path: '^src/emulator/routes/' },
    },
    {
      name: 'cli-entry-stays-light',
      comment:
        'what every command line loads before its own command (main, the program, io, errors, the global options) imports nothing but itself, commander and node: no zod, no contract, no command (those are imported by the command that runs)',
      severity: 'error',
      from: { path: CLI_ENTRY },
      to: { pathNot: [CLI_ENTRY, '^node_modules/commander/', '^node:|^[a-z_]+$'], dependencyTypesNot: ['type-only', 'dynamic-import'] },
    },
    {
      name: 'clients-load-one-area',
      comment:
        "a client (the CLI's commands, its control and service clients, the device SDK) takes the operations of the area it calls (contract/operations/<area>.ts, or by-area.ts's import on first use), never every route's from operations/index.ts: `clock show` would build chaos's and the device's declarations and load node:crypto for them (docs/performance.md)",
      severity: 'error',
      from: { path: '^src/(cli|client|sdk)/' },
      to: { path: '^src/contract/operations/index[.]ts$', dependencyTypesNot: ['type-only', 'dynamic-import'] },
    },
    {
      name: 'parts-take-what-they-use',
      comment:
        "the emulator's domain functions and HTTP parts are typed by what they use (emulator/domain/state-context.ts: the store, clock, ids and box; config.ts, http/app-env.ts; a named part more where needed), never by the whole EmulatorContext of context.ts, whose types loop back through domain/ and http/; implement.ts alone hands the context to the handlers; the console is typed by console/context.ts, a change of the whole state by state/state-change-context.ts",
      severity: 'error',
      from: {
        path: ['^src/emulator/(domain|http|state)/', '^src/emulator/seed[.]ts$', '^src/console/'],
        pathNot: '^src/emulator/http/implement[.]ts$',
      },
      to: { path: '^src/emulator/context[.]ts$' },
    },
    {
      name: 'no-unresolvable',
      comment: 'every relative import names a file that exists',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Packages resolve through their `exports` map (hono/cookie, ink), as Node resolves them.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
