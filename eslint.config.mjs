// The linter: typescript-eslint's recommended type-aware rules over the program, its benchmark and
// its tests. Findings are fixed, not silenced; the few rules turned off below say why.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'out/**', 'coverage/**', 'test/fixtures/**', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.test.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The code base's convention: a leading underscore names a value kept on purpose but not read
      // (a parameter an interface requires, a field left out of a rest spread), and `...rest` omits.
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_',
        varsIgnorePattern: '^_',
        caughtErrorsIgnorePattern: '^_',
        destructuredArrayIgnorePattern: '^_',
        ignoreRestSiblings: true,
      }],
    },
  },
  {
    files: ['test/**'],
    rules: {
      // Test doubles stand in for async interfaces (mail hooks, transports, clocks, lock bodies): `async` keeps
      // a double's throw a rejection, as the real implementation's is, even when it has nothing to await.
      '@typescript-eslint/require-await': 'off',
    },
  },
);
