// ESLint (flat config): the recommended JavaScript and typescript-eslint rule sets, plus max-len at the
// Prettier width for what Prettier cannot wrap (comments, code); long strings and template literals
// (messages, SQL, help text) and URLs are exempt. Formatting itself is Prettier's (`npm run format`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      // A leading underscore marks a name kept unused on purpose (TypeScript's own convention for
      // noUnusedParameters); a rest sibling drops the keys it names from the copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // CommonJS tool configuration (mocha's): Node's module globals and require().
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Noise in tests: chai's property assertions (`expect(x).to.be.empty`) are expression statements.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
