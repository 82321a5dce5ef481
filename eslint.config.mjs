// @ts-check
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The layers of docs/architecture.md and who may import whom:
 *   app → components, server, lib;  components → lib;  server → lib;  sim → lib;
 *   lib → nothing (zod, and type-only imports, aside).
 */
export const layers = [
  { type: 'app', pattern: 'app' },
  { type: 'components', pattern: 'components' },
  { type: 'server', pattern: 'server' },
  { type: 'lib', pattern: 'lib' },
  { type: 'sim', pattern: 'sim' },
  { type: 'e2e', pattern: 'e2e' },
  { type: 'scripts', pattern: 'scripts' },
  { type: 'bench', pattern: 'bench' },
];

const layerPolicy = {
  default: 'disallow',
  checkAllOrigins: true,
  message:
    'Import boundary: {{ from.element.type }} may not import {{ to.element.type }}{{ to.module.source }} (docs/architecture.md, "Layers and who may import whom").',
  policies: [
    // Files inside one layer import each other freely (the plugin skips internal dependencies).
    { from: { element: { type: 'app' } }, allow: { to: { element: { type: '{components,server,lib}' } } } },
    { from: { element: { type: 'components' } }, allow: { to: { element: { type: 'lib' } } } },
    { from: { element: { type: 'server' } }, allow: { to: { element: { type: 'lib' } } } },
    { from: { element: { type: 'sim' } }, allow: { to: { element: { type: 'lib' } } } },
    // Tests and tooling drive the product from outside.
    { from: { element: { type: 'e2e' } }, allow: { to: { element: { type: '{lib,sim}' } } } },
    { from: { element: { type: 'scripts' } }, allow: { to: { element: { type: '{lib,sim}' } } } },
    { from: { element: { type: 'bench' } }, allow: { to: { element: { type: '{lib,sim}' } } } },
    // The in-process view benchmark times the data structures the routes read (run with --conditions=react-server).
    { from: { file: { path: 'bench/{views,memory}.ts' } }, allow: { to: { file: { path: 'server/fleet/**' } } } },
    // The memory benchmark slims each object with the informers' own function, as they hold it.
    { from: { file: { path: 'bench/memory.ts' } }, allow: { to: { file: { path: 'server/watch/informer.ts' } } } },
    // The commit benchmark times the history's SQLite file with and without its checkpoint thread.
    { from: { file: { path: 'bench/sqlite-commit.ts' } }, allow: { to: { file: { path: 'server/store/{sqlite,wal-checkpointer}.ts' } } } },
    // The fleet benchmark can run the BFF on a throwaway PostgreSQL, started as the tests start one, and reads event streams as they do.
    { from: { file: { path: 'bench/fleet.ts' } }, allow: { to: { file: { path: 'test/support/{postgres,sse}.ts' } } } },
    // The quiet-fleet benchmark runs cluster watchers with the product's defaults against the simulator.
    { from: { file: { path: 'bench/quiet-watches.ts' } }, allow: { to: { file: { path: 'server/{watch,clusters}/**' } } } },
    // The browser benchmark finds Chromium as the e2e tests do.
    { from: { file: { path: 'bench/triage-page.ts' } }, allow: { to: { file: { path: 'e2e/chromium.ts' } } } },
    // Server integration tests run against the simulator.
    { from: { file: { path: 'server/**/*.test.ts' } }, allow: { to: { element: { type: 'sim' } } } },
    // Packages: every layer but lib may use them.
    {
      from: { element: { type: '{app,components,server,sim,e2e,scripts,bench}' } },
      allow: { to: { module: { origin: '{external,core}' } } },
    },
    // lib is pure: zod only, plus type-only imports; its own tests may use test tooling.
    { from: { element: { type: 'lib' } }, allow: { to: { module: { origin: 'external', source: 'zod' } } } },
    { from: { element: { type: 'lib' } }, allow: { dependency: { kind: 'type' } } },
    { from: { file: { path: 'lib/**/*.test.ts' } }, allow: { to: { module: { origin: '{external,core}' } } } },
  ],
};

export default tseslint.config(
  {
    ignores: [
      '.next/**',
      '.next-*/**',
      '.autoscope-e2e/**',
      '.test-reports/**',
      '.scratch/**',
      'node_modules/**',
      'next-env.d.ts',
      'e2e/artifacts/**',
      'test-results/**',
      'playwright-report/**',
      '.autoscope/**',
      '.sim/**',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A switch over a union names every member (or has a default on purpose): a new kind, strategy or
      // reason added to lib/api must be handled wherever it is switched on.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // A `?.` or `??` on a value the types say is always there is either dead code or a type that lies about
      // the wire: make the type tell the truth (optional where the API may omit it), then the guard is needed.
      '@typescript-eslint/no-unnecessary-condition': 'error',
    },
  },
  { files: ['**/*.{js,mjs,cjs,mts}'], ...tseslint.configs.disableTypeChecked },
  {
    // Vitest's and Playwright's asymmetric matchers (`expect.any(String)`, `expect.objectContaining`) are typed `any`.
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    plugins: { boundaries, 'react-hooks': reactHooks },
    settings: {
      'boundaries/elements': layers,
      'boundaries/include': ['{app,components,server,lib,sim,e2e,scripts,bench}/**/*'],
      'import/resolver': { typescript: { alwaysTryTypes: true, project: './tsconfig.json' }, node: true },
    },
    rules: {
      'boundaries/dependencies': ['error', layerPolicy],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'lib/ takes time as an argument (`now`), never reads the clock.',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'lib/ takes time as an argument (`now`), never reads the clock.',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'lib/ is deterministic; take randomness as an argument.',
        },
      ],
    },
  },
  {
    // better-sqlite3 only through SqliteFile, which never lets a statement become garbage (docs/toolchain.md, trap 16);
    // links only through components/ui/link.tsx, which prefetches on intent, not on sight (docs/performance.md).
    files: ['**/*.{ts,tsx,mjs,js}'],
    ignores: ['server/store/sqlite.ts', 'components/ui/link.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'better-sqlite3', message: 'Open SQLite through server/store/sqlite.ts (docs/toolchain.md, trap 16).' },
            { name: 'next/link', message: 'Use components/ui/link.tsx: it prefetches on intent, not every link in view.' },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'sim/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts', 'test/**/*.ts', '*.config.{ts,mjs,js,mts}'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
