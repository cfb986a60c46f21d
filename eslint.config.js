// ESLint 9 flat config: typescript-eslint, React hooks, accessibility and import cycles.
// Formatting is Prettier's (see .prettierrc.json); nothing here argues with it.
import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "public/build/**", "node_modules/**", "data/**", "tmp/**", "coverage/**", ".cache/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    files: ["**/*.{ts,tsx,js}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks, "import-x": importX },
    settings: { "import-x/resolver": { typescript: true, node: true } },
    rules: {
      // The classic hooks rules; react-hooks 7's React Compiler rules (set-state-in-effect, refs)
      // assume the compiler, which a Remix v2 / React 18 build does not run.
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // A scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: [], roles: ["tabpanel", "region"] }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // Every control-character class here strips or refuses control characters on purpose.
      "no-control-regex": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    // Migrations take Kysely<any> (Kysely's documented convention: a migration must not depend on
    // today's schema types); benches poke at rows of any shape.
    files: ["migrations/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Replies are typed (FormReply and friends in app/lib/forms.ts, or a named type), never widened by
    // a cast such as `null as string | null` or `{} as Record<string, string>` (docs/ARCHITECTURE.md §4).
    files: ["app/routes/**", "app/web/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSAsExpression[expression.type='Literal'][expression.raw='null']",
          message: "Type the reply (FormReply from ~/lib/forms, or json<T>) instead of casting null.",
        },
        {
          selector: "TSAsExpression[expression.type='ObjectExpression'][expression.properties.length=0]",
          message: "Type the reply (FormReply from ~/lib/forms, or json<T>) instead of casting {}.",
        },
      ],
    },
  },
  {
    // Provider adapters are pure: they fetch and map and take their settings as arguments; the
    // linking module (app/server/linking/linking.server.ts) stores, decrypts and schedules. Nothing under
    // app/sources, its tests included, imports from app/server (docs/ARCHITECTURE.md §1).
    files: ["app/sources/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/server", "~/server/**", "**/app/server", "**/app/server/**", "../server", "../server/**"],
              message: "app/sources is pure: take what the adapter needs as an argument (ARCHITECTURE.md §1).",
            },
          ],
        },
      ],
    },
  },
  {
    // Services return data or a Refusal; the routes and their glue in app/web make responses. The
    // domain rooms import no Remix server or React package, nor app/web (docs/ARCHITECTURE.md §2).
    files: ["app/server/{accounts,linking,grades,community,billing}/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["@remix-run/node", "@remix-run/server-runtime", "@remix-run/react"].map((name) => ({
            name,
            message:
              "Services return data or a Refusal; build the Response in the route or in app/web (ARCHITECTURE.md §2).",
          })),
          patterns: [
            {
              group: ["~/web", "~/web/**", "**/app/web", "**/app/web/**", "../web", "../web/**", "../../web/**"],
              message: "app/web is the routes' glue: services never import it (ARCHITECTURE.md §2).",
            },
          ],
        },
      ],
    },
  },
);
