/**
 * The layers of src/, as data (docs/architecture.md draws them). A folder may import its own files and
 * the folders its layer lists under `may`, nothing else: a wrong-way import fails `npm test`
 * (test/architecture/layers.test.ts) and `npm run check:layers`, naming the rule it breaks.
 *
 * Lowest first. Type-only imports count: a type is a dependency too.
 */
const LAYERS = [
  { name: 'text', may: [], why: 'pure text helpers (escaping, did-you-mean, unsafe characters) that every layer may use' },
  { name: 'host', may: [], why: 'what the process runs on: thread counts, crash points for tests' },
  { name: 'core', may: ['text'], why: 'the rules: a pure function of (state, orders, seed), no I/O' },
  { name: 'campaign', may: ['core', 'text', 'host'], why: 'the store: campaign folders, schemas, atomic files, secrets' },
  { name: 'mail', may: ['text', 'host'], why: 'mail transports, parsing and composing; knows nothing of turns' },
  { name: 'orders', may: ['mail', 'campaign', 'core', 'text', 'host'], why: 'players\' order sheets (files and mails) into typed orders, and the receipt' },
  { name: 'report', may: ['orders', 'mail', 'campaign', 'core', 'text', 'host'], why: 'nation views, templates, maps' },
  { name: 'seats', may: ['orders', 'campaign', 'core', 'text', 'host'], why: 'who plays a silent player\'s seat: the policy, and the caretaker\'s orders on file' },
  { name: 'jobs', may: ['seats', 'report', 'orders', 'campaign', 'core', 'text', 'host'], why: 'a turn as a job: read inputs, resolve, write the turn folder' },
  { name: 'schedule', may: ['jobs', 'seats', 'report', 'orders', 'campaign', 'core', 'text', 'host'], why: 'deadlines and ticks; mail plugs into it through TickHooks, it never imports the mailroom' },
  { name: 'mailroom', may: ['schedule', 'jobs', 'seats', 'report', 'orders', 'mail', 'campaign', 'core', 'text', 'host'], why: 'the mail loop: decide, ledger, outbox' },
  { name: 'gm', may: ['mailroom', 'schedule', 'jobs', 'seats', 'report', 'orders', 'mail', 'campaign', 'core', 'text', 'host'], why: 'the GM\'s operations' },
  { name: 'generate', may: ['campaign', 'core', 'text', 'host'], why: 'synthetic campaigns for load tests' },
];
/** The doors: they may use every layer and no layer uses them. */
const DOORS = ['cli', 'web'];

const folders = [...LAYERS.map((l) => l.name), ...DOORS];
const rules = LAYERS.map((layer) => {
  const banned = folders.filter((f) => f !== layer.name && !layer.may.includes(f));
  return {
    name: `layer-${layer.name}`,
    severity: 'error',
    comment: `src/${layer.name} (${layer.why}) may import only ${layer.may.length ? layer.may.map((m) => `src/${m}`).join(', ') : 'itself'}`,
    from: { path: `^src/${layer.name}/` },
    to: { path: `^src/(${banned.join('|')})/` },
  };
});

module.exports = {
  forbidden: [
    ...rules,
    {
      name: 'doors-are-on-top',
      severity: 'error',
      comment: 'no layer imports a door (src/cli, src/web): the doors wire layers together',
      from: { path: `^src/(${LAYERS.map((l) => l.name).join('|')})/` },
      to: { path: `^src/(${DOORS.join('|')})/` },
    },
    {
      name: 'src-not-tests',
      severity: 'error',
      comment: 'src/ never imports from test/ or bench/',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'core-no-io',
      severity: 'error',
      comment: 'src/core is pure: no node: modules and no packages but seedrandom (docs/architecture.md)',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: '^node_modules/seedrandom/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'an import that does not resolve to a file',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
  },
};
// For docs/architecture.md's check that it draws the same layers (not a dependency-cruiser key).
Object.defineProperty(module.exports, 'layers', { value: { LAYERS, DOORS }, enumerable: false });
