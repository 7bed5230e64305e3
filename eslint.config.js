// ESLint flat config. Formatting belongs to Prettier (eslint-config-prettier turns off the rules it owns);
// this file holds correctness rules and the layer boundaries of docs/architecture.md.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** A `no-restricted-imports` pattern group refusing imports of the named top-level folders. */
const forbid = (folders, why) => ({
  group: folders.flatMap((f) => [`../${f}/**`, `../../${f}/**`, `../../../${f}/**`, `../${f}`, `../../${f}`]),
  message: why,
});

const PRISMA = {
  group: ['@prisma/*', '*/generated/prisma/*', '../generated/**', '../../generated/**'],
  message: 'Prisma belongs to store/ (and the service queries over its handle); engine/ and graph/ never touch it.',
};
const AWS = { group: ['@aws-sdk/*', 'aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'], message: 'AWS belongs to functions/ and infra/.' };
const HTTP = {
  group: ['graphql', 'graphql-yoga', '@graphql-yoga/*', '@pothos/*', 'pg', '@electric-sql/*', 'pglite-prisma-adapter', 'jose', 'zod'],
  message: 'The engine is pure: no GraphQL, HTTP, database or validation libraries.',
};

/** Layer rules: each folder names what it must not import (docs/architecture.md, "Who may import whom"). */
const LAYERS = [
  {
    files: ['engine/**/*.ts'],
    patterns: [
      forbid(
        ['store', 'service', 'graph', 'rest', 'functions', 'cli', 'infra', 'render', 'web', 'bench', 'test', 'scripts'],
        'engine/ imports nothing of ours outside engine/.',
      ),
      PRISMA,
      AWS,
      HTTP,
      {
        group: ['node:fs', 'node:fs/*', 'fs', 'node:net', 'node:http', 'node:https', 'node:child_process', 'node:dns'],
        message: 'engine/ does no I/O: take the data as an argument.',
      },
    ],
  },
  {
    // Board pictures: pure SVG from engine views, with PNG/GIF adapters at the edge (resvg, gifenc).
    files: ['render/**/*.ts'],
    patterns: [
      forbid(
        ['store', 'service', 'graph', 'functions', 'cli', 'infra', 'web', 'bench', 'test', 'scripts'],
        'render/ reads engine views only: it knows no database, HTTP or GraphQL.',
      ),
      PRISMA,
      AWS,
      HTTP,
    ],
  },
  {
    // The play page runs in a browser and talks to the API over HTTP only.
    files: ['web/**/*.ts'],
    patterns: [
      forbid(
        ['engine', 'render', 'store', 'service', 'graph', 'functions', 'cli', 'infra', 'bench', 'test', 'scripts'],
        'web/ is browser code: it reaches the server over HTTP (web/api.ts), never by import.',
      ),
      PRISMA,
      AWS,
      HTTP,
    ],
  },
  {
    files: ['store/**/*.ts'],
    patterns: [
      forbid(
        ['service', 'graph', 'rest', 'functions', 'cli', 'infra', 'render', 'web'],
        'store/ is below service/ and graph/: it must not import them.',
      ),
      AWS,
    ],
  },
  {
    files: ['service/**/*.ts'],
    patterns: [forbid(['graph', 'rest', 'functions', 'cli', 'infra', 'web'], 'service/ is below graph/, rest/ and functions/.'), AWS],
  },
  {
    files: ['graph/**/*.ts'],
    patterns: [
      forbid(['store', 'rest', 'functions', 'cli', 'infra', 'web'], 'graph/ asks service/; it never imports store/, rest/ or functions/.'),
      PRISMA,
      AWS,
    ],
  },
  {
    // The REST edge sits beside graph/: it asks graph/ (the schema, Yoga), service/ and engine/, never the store.
    files: ['rest/**/*.ts'],
    patterns: [
      forbid(['store', 'functions', 'cli', 'infra', 'web'], 'rest/ is an edge beside graph/: it never imports store/ or functions/.'),
      PRISMA,
      AWS,
    ],
  },
  {
    files: ['cli/**/*.ts'],
    patterns: [forbid(['graph', 'rest', 'functions', 'infra', 'web'], 'The CLI works on engine/ and service/, not on the HTTP edge.')],
  },
  {
    files: ['infra/**/*.ts'],
    patterns: [
      forbid(
        ['engine', 'store', 'service', 'graph', 'rest', 'render', 'web'],
        'infra/ describes the deployment; it links to functions/ entry files by path, not by import.',
      ),
    ],
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'cdk.out/**',
      'generated/**',
      'data/**',
      '.arbiter-data/**',
      'bench/.cache/**',
      'coverage/**',
      'test/fixtures/**',
      'test-artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  ...LAYERS.map(({ files, patterns }) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } })),
  {
    // The Pothos prisma plugin needs the generated Prisma *types* in the builder; no client, no query.
    files: ['graph/builder.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: LAYERS.find((l) => l.files[0] === 'graph/**/*.ts').patterns.filter((p) => p !== PRISMA) },
      ],
    },
  },
  {
    // Unit tests beside engine code may read fixture files and load lexicons from disk; they are not part of the engine build.
    files: ['engine/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Size limits (issue 12): small modules and short functions where the product's logic lives.
    files: ['engine/**/*.ts', 'render/**/*.ts', 'service/**/*.ts', 'graph/**/*.ts', 'rest/**/*.ts', 'store/**/*.ts', 'functions/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.fixtures.ts', 'engine/rules/presets.ts'],
    rules: {
      'max-lines': ['error', { max: 450, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/**/*.ts'],
    ignores: ['web/**/*.test.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-var': 'off' },
  },
  prettier,
);
