import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const WEB = `${import.meta.dirname}/apps/web/src`;
/** The web's feature folders: each gets a zone below that keeps the others out of its internals. */
const FEATURES = readdirSync(`${WEB}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const SERVER = `${import.meta.dirname}/apps/server/src`;
/** The server's modules: each gets a zone below that lets the others in only through its index.ts. */
const MODULES = readdirSync(`${SERVER}/modules`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Syntax the web forbids everywhere; the features' block below repeats it (a later block replaces the list). */
const WEB_RESTRICTED_SYNTAX = [
  // A literal query key drifts from the feature's own: keys come from the feature's key factory.
  {
    selector: "Property[key.name='queryKey'] > ArrayExpression",
    message: "Use the feature's query-key factory (api/query-keys.ts), not a literal key.",
  },
  {
    selector: 'CallExpression[callee.name=/^use(Save|Delete)Mutation$/] > ArrayExpression',
    message: "Use the feature's query-key factory (api/query-keys.ts), not a literal key.",
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/artifacts/**',
      '**/*.config.ts',
      '**/*.config.js',
      'scripts/**',
      'apps/server/build.mjs',
      'apps/edge/build.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/only-throw-error': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'no-restricted-syntax': ['error', ...WEB_RESTRICTED_SYNTAX],
      // The browser must not validate before our translated rules do (spec §5): forms come from
      // components/form, which sets noValidate.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'antd/es/form',
              importNames: ['default'],
              message: 'Use Form from components/form: it sets noValidate.',
            },
            {
              name: 'antd',
              importNames: ['Form'],
              message: 'Use Form from components/form: it sets noValidate.',
            },
          ],
        },
      ],
    },
  },
  {
    // Import rules resolve every specifier the way TypeScript does (workspace packages included), so a
    // boundary holds whatever relative spelling an import uses.
    files: [
      'apps/web/**/*.{ts,tsx}',
      'packages/**/*.ts',
      'apps/server/**/*.ts',
      'apps/simulator/**/*.ts',
      'apps/edge/**/*.ts',
      'e2e/**/*.ts',
    ],
    plugins: { 'import-x': importX },
    settings: {
      // Without these the rules skip .ts/.tsx files as unparseable and see no cycle at all.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            'apps/web/tsconfig.json',
            'packages/shared/tsconfig.json',
            'packages/i18n/tsconfig.json',
            'packages/pv-model/tsconfig.json',
            'packages/modbus/tsconfig.json',
            'apps/server/tsconfig.json',
            'apps/simulator/tsconfig.json',
            'apps/edge/tsconfig.json',
            'e2e/tsconfig.json',
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // A cycle makes module order matter and, through lazy pages, splits bundles badly.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      // Dependencies flow one way (lib, components → features → app), and a feature reaches another
      // only through its public index.ts, never its api/, components/ or pages.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: [`${WEB}/lib`, `${WEB}/components`],
              from: [`${WEB}/features`, `${WEB}/app`],
              message: 'Shared code must not depend on features or the app shell.',
            },
            ...FEATURES.map((feature) => ({
              target: `${WEB}/features/${feature}`,
              from: [`${WEB}/features/*/**`, `${WEB}/app/**`],
              except: [`${WEB}/features/${feature}/**`, `${WEB}/features/*/index.ts`],
              message: 'Import another feature through its index.ts, and never the app shell.',
            })),
            {
              // The page registry (console) and the public app (logged-out pages) lazy-load each page
              // module: the pages are the routes' entry points.
              target: `${WEB}/app/!(page-registry|public-app).{ts,tsx}`,
              from: `${WEB}/features/*/**`,
              except: [`${WEB}/features/*/index.ts`],
              message:
                'Import a feature through its index.ts (pages only from page-registry.ts or public-app.tsx).',
            },
          ],
        },
      ],
    },
  },
  {
    // The server's modules meet only through each other's index.ts, lib/ depends on no module, and the
    // route registry (modules/index.ts) is the one place that names a module's routes file
    // (docs/architecture.md, "Module boundaries").
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: `${SERVER}/lib`,
              from: `${SERVER}/modules`,
              message: 'lib/ is shared by every module and depends on none: move the code into the module.',
            },
            ...MODULES.map((module) => ({
              target: `${SERVER}/modules/${module}`,
              from: `${SERVER}/modules/*/**`,
              except: [`${SERVER}/modules/${module}/**`, `${SERVER}/modules/*/index.ts`],
              message: "Import another module through its index.ts (the module's public face).",
            })),
            {
              target: [
                `${SERVER}/!(modules|file-builds)/**`,
                `${SERVER}/file-builds/!(file-build-thread).ts`,
                `${SERVER}/*.ts`,
              ],
              from: `${SERVER}/modules/*/**`,
              except: [`${SERVER}/modules/*/index.ts`],
              message: "Import a module through its index.ts (the module's public face).",
            },
            {
              // A thread's entry is bundled on its own (build.mjs): the file-build thread loads the file
              // builders alone, not the modules' indexes (which bring the database drivers along).
              target: `${SERVER}/file-builds/file-build-thread.ts`,
              from: `${SERVER}/modules/*/**`,
              except: [
                `${SERVER}/modules/*/index.ts`,
                `${SERVER}/modules/reports/report-{csv,document,pdf,xlsx}.ts`,
                `${SERVER}/modules/telemetry/telemetry.export.{ts,tsx}`,
              ],
              message: 'The file-build thread imports the file builders, or a module through its index.ts.',
            },
            {
              target: `${SERVER}/modules/index.ts`,
              from: `${SERVER}/modules/*/**`,
              except: [`${SERVER}/modules/*/index.ts`, `${SERVER}/modules/*/*.routes.ts`],
              message: "The route registry imports a module's routes files or its index.ts, nothing else.",
            },
          ],
        },
      ],
    },
  },
  {
    // Cross-cutting plugins run no queries of their own: SQL lives in a module's repository (the session
    // queries the auth hook runs belong to modules/auth).
    files: ['apps/server/src/plugins/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message: "plugins/ holds no repository: put the query in the owning module's repository.",
        },
      ],
    },
  },
  {
    // A create/edit form in a drawer is EntityFormDrawer with useEntityForm (components/entity-form.tsx),
    // which owns the drawer, the save and the failure; a feature does not build that scaffold again.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...WEB_RESTRICTED_SYNTAX,
        {
          selector: "JSXOpeningElement[name.name='FormDrawer']",
          message: 'Use EntityFormDrawer and useEntityForm (components/entity-form.tsx).',
        },
        {
          selector: "IfStatement[test.operator='!'][test.argument.callee.name='applyFieldErrors']",
          message:
            'Use useEntityForm (a form in a drawer) or reportSaveError (lib/api-errors.ts) to show a failed save.',
        },
      ],
    },
  },
  {
    // The server judges the demo's data with @solar/pv-model, never with the simulator that made it: the
    // simulator is an optional devDependency, loaded at run time only by load-simulator.ts (docs/pv-model.md).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/test/**', 'apps/server/src/simulator/load-simulator.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@solar/simulator',
              allowTypeImports: true,
              message:
                'The simulator is optional: physics from @solar/pv-model, the demo through simulator/load-simulator.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  {
    // Benchmarks and the resilience suites exist to print their figures.
    files: [
      'e2e/bench/**/*.ts',
      'apps/server/bench/**/*.ts',
      'apps/edge/bench/**/*.ts',
      'e2e/resilience/**/*.ts',
    ],
    rules: { 'no-console': 'off' },
  },
);
