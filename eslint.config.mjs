// Lint: typescript-eslint's recommended rules over the sources, tests, benchmarks and scripts; with the
// TypeScript program (the project service reads tsconfig.json) for the promise rules, which need types.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.e2e-cache/**',
      '.local-platform/**',
      'test-results/**',
      // The extension-host suite's bundle (scripts/e2e/build-vscode-tests.mjs).
      'out/**',
      '.vscode-test/**',
      'src/authoring/generated/**',
      'src/localPlatform/faults/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        document: 'readonly',
        window: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-require-imports': 'off',
      // A server's handler refers to the instance that is built once the server listens.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // A promise nobody awaits loses its failure (an unhandled rejection instead of the command's report).
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The app's functions stay small: a wizard is steps over one state (src/app/ask/wizard.ts), not one long
    // function of closures.
    files: ['src/app/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] },
  },
);
