import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// PocketBase's goja VM globals, for the hooks and migrations.
const pocketbaseGlobals = Object.fromEntries(
  [
    '$app', '$apis', '$http', '$os', '$security', '$filesystem', '$template', '$mails', '$tokens', '$dbx', '__hooks',
    'routerAdd', 'routerUse', 'cronAdd', 'cronRemove', 'migrate', 'Collection', 'Record', 'RecordModel', 'TextField',
    'SelectField', 'RelationField', 'BoolField', 'DateField', 'FileField', 'AutodateField', 'NumberField',
    'DynamicModel', 'DateTime', 'BadRequestError', 'NotFoundError', 'ForbiddenError', 'UnauthorizedError', 'ApiError',
    'TooManyRequestsError', 'InternalServerError', 'ValidationError', 'toString', 'sleep', 'readerToString', 'arrayOf',
    'onBootstrap', 'onServe', 'onRecordCreateRequest', 'onRecordUpdateRequest', 'onRecordAfterCreateSuccess',
    'onRecordCreate', 'onRecordUpdate', 'onRecordValidate', 'onRecordEnrich', 'onRecordsListRequest', 'onRecordViewRequest',
    'onRecordAuthRequest', 'onRecordAuthWithPasswordRequest', 'onRecordConfirmPasswordResetRequest', 'onBatchRequest', 'onModelCreate', 'onRecordDeleteRequest', 'onRecordDelete',
    'require', 'module', 'console',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/', 'dist-*/', 'node_modules/', '.pocketbase/', '.data/', '.scratch/', 'test-results/', 'pocketbase/pb_hooks/lib/generated/'] },
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
);
