import next from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

/** The files the typed rules read types for (scripts/types-and-lint.mjs gives them its program). */
export const TYPED_FILES = ["**/*.ts", "**/*.tsx", "**/*.mts"];

const config = [
  ...next,
  ...nextTs,
  { ignores: [".next/**", ".next-*/**", "data/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts", ".theorem-build/**"] },
  // Typed rules (STYLE.md): the mistakes types can see, a promise nobody awaits first among them.
  {
    files: TYPED_FILES,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      // React's handlers may be async: a returned promise there is ignored on purpose.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
      "@typescript-eslint/no-base-to-string": "error",
    },
  },
  // One link for the dashboard's pages: its page fetched ahead on intent, not on sight (components/ui/link.tsx).
  {
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    ignores: ["components/ui/link.tsx"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "Use { Link } from @/components/ui/link: it fetches a page ahead on intent, not whenever it is in view." }] }],
    },
  },
];

export default config;
