import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// PocketBase's goja VM globals, for the hooks and migrations.
const pocketbaseGlobals = Object.fromEntries(
  [
    '$app',
    '$apis',
    '$http',
    '$os',
    '$security',
    '$filesystem',
    '$template',
    '$mails',
    '$tokens',
    '$dbx',
    '__hooks',
    'routerAdd',
    'routerUse',
    'Middleware',
    'cronAdd',
    'cronRemove',
    'migrate',
    'Collection',
    'Record',
    'RecordModel',
    'TextField',
    'SelectField',
    'RelationField',
    'BoolField',
    'DateField',
    'FileField',
    'AutodateField',
    'NumberField',
    'DynamicModel',
    'DateTime',
    'BadRequestError',
    'NotFoundError',
    'ForbiddenError',
    'UnauthorizedError',
    'ApiError',
    'TooManyRequestsError',
    'InternalServerError',
    'ValidationError',
    'toString',
    'sleep',
    'readerToString',
    'arrayOf',
    'onBootstrap',
    'onServe',
    'onRecordCreateRequest',
    'onRecordUpdateRequest',
    'onRecordAfterCreateSuccess',
    'onRecordAfterUpdateSuccess',
    'onRecordCreate',
    'onRecordUpdate',
    'onRecordValidate',
    'onRecordEnrich',
    'onRecordsListRequest',
    'onRecordViewRequest',
    'onRecordAuthRequest',
    'onRecordAuthWithPasswordRequest',
    'onRecordConfirmPasswordResetRequest',
    'onBatchRequest',
    'onModelCreate',
    'onRecordDeleteRequest',
    'onRecordDelete',
    'require',
    'module',
    'console',
  ].map((name) => [name, 'readonly']),
);

/**
 * The layers of docs/architecture.md#the-layers, kept by the linter: features read and
 * write only through data; data talks to the server through api; domain
 * depends on nothing; a feature never imports the PocketBase client, app/ or
 * another feature. tests/unit/layers.test.ts proves each rule fails a wrong import.
 */
const importsOnly = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const layerRules = [
  {
    files: ['src/domain/**/*.{ts,tsx}'],
    rules: importsOnly({
      regex: '^\\.\\./',
      message: 'src/domain depends on nothing: pure rules only (docs/architecture.md#the-layers).',
    }),
  },
  {
    files: ['src/api/**/*.{ts,tsx}'],
    rules: importsOnly({
      regex: '^\\.\\./(?!domain/)',
      message: 'src/api may use src/domain only (docs/architecture.md#the-layers).',
    }),
  },
  {
    files: ['src/data/**/*.{ts,tsx}'],
    rules: importsOnly({
      regex: '^(\\.\\./)+(features|app|ui)/',
      message: 'src/data talks to src/api and src/domain only, never to screens (docs/architecture.md#the-layers).',
    }),
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: importsOnly({
      regex: '^\\.\\./(features|app|data|api/client)',
      message:
        'src/ui holds shared components: no screens, no data layer, no server client (docs/architecture.md#the-layers).',
    }),
  },
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: importsOnly(
      {
        regex: '^\\.\\./(?!\\.\\.)',
        message:
          'A feature never imports another feature: move what both need to src/data, src/ui or src/domain (docs/architecture.md#the-layers).',
      },
      { regex: '^\\.\\./\\.\\./app/', message: 'A feature never imports src/app (docs/architecture.md#the-layers).' },
      {
        regex: '^\\.\\./\\.\\./data/(sync|mirror)/',
        message:
          'A feature never imports the sync machinery or the database: read and write through src/data/resources and the hooks of src/data (docs/architecture.md#the-layers).',
      },
      {
        regex: '^\\.\\./\\.\\./api/client',
        message:
          'A feature never uses the PocketBase client: read and write through src/data (docs/architecture.md#the-layers).',
      },
    ),
  },
  {
    files: ['src/app/**/*.{ts,tsx}', 'src/*.{ts,tsx}', 'sw/**/*.ts'],
    rules: importsOnly({
      regex: '/api/client',
      message: 'Only src/data uses the PocketBase client (docs/architecture.md#the-layers).',
    }),
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-*/',
      'node_modules/',
      '.pocketbase/',
      '.tools/',
      '.data/',
      '.scratch/',
      'test-results/',
      'pocketbase/pb_hooks/lib/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['sw/**/*.ts'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ['scripts/**/*.ts', 'tests/**/*.ts', '*.config.ts', '*.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['pocketbase/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: pocketbaseGlobals },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/triple-slash-reference': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...layerRules,
);
