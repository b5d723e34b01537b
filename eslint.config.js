import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import { errorTypeRule } from './eslint/error-type-rule.js'
import { layersRule } from './eslint/layers-rule.js'

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-results/**', 'playwright-report/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { ob: { rules: { layers: layersRule, 'one-error-type': errorTypeRule } } },
    rules: {
      'ob/layers': 'error',
      'ob/one-error-type': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Functions that fit a screen: 80 lines at most, blank lines and comments not counted.
  {
    files: ['src-main/**/*.ts', 'src-renderer/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
)
