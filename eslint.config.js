import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
      // Features meet in app/: a feature must not reach into another feature's internals.
      'no-restricted-imports': [
        'error',
        {
          // The browser must not validate before our translated rules do (spec §5).
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
          patterns: [
            {
              group: ['../../features/*/*', '../*/components/*', '../*/api/*'],
              message: 'Import another feature through app/ or lib/, not its internals.',
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
    // Benchmarks exist to print their figures.
    files: ['e2e/bench/**/*.ts', 'apps/server/bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
