import { readdirSync } from "node:fs";
import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers of src/, top to bottom: app → routes → features/<name> → components, hooks, lib → api.
// Each may import the ones below it only, a feature never imports another feature, and only a
// feature's api/ folder talks HTTP. Zones are built from the feature folders on disk.
const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const SHARED = ["./src/components", "./src/hooks", "./src/lib", "./src/api", "./src/test"];
const NOT_API = [
  "./src/app",
  "./src/routes",
  "./src/components",
  "./src/hooks",
  "./src/lib",
  "./src/test",
  "./src/main.tsx",
  "./src/features/*/!(api)/**",
  "./src/features/*/*.{ts,tsx}",
];
const boundaries = [
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: "./src/features",
    except: [`./${name}`],
    message: "A feature never imports another feature: move what both need to components/, hooks/ or lib/.",
  })),
  {
    target: "./src/features",
    from: ["./src/app", "./src/routes"],
    message: "Features sit below the app and its routes.",
  },
  {
    target: SHARED,
    from: ["./src/features", "./src/routes", "./src/app"],
    message: "Shared code (components, hooks, lib, api) never imports a feature, a route or the app.",
  },
  {
    target: NOT_API,
    from: "./src/api/client.ts",
    message: "Requests live in features/<name>/api/: import that module's fetcher or hook instead.",
  },
];

// Colours are written once, in src/app/tokens.css; code refers to them through src/lib/tokens.ts.
// prettier-ignore
const NAMED_COLOURS = (
  "aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet " +
  "brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue " +
  "darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange " +
  "darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise " +
  "darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia " +
  "gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo " +
  "ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan " +
  "lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue " +
  "lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon " +
  "mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue " +
  "mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin " +
  "navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen " +
  "paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red " +
  "rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue " +
  "slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white " +
  "whitesmoke yellow yellowgreen"
).split(" ");
const COLOUR_MESSAGE =
  "No colour literals outside the design tokens: use `color` from @/lib/tokens (a CSS variable).";
const HEX = "#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})";
// A hex colour inside a longer string, where CSS would put one ("1px solid #ccc", "(#fff, …"),
// so that prose such as "run #123" stays legal.
const IN_CSS = "(?:solid|dashed|dotted|double|[(,:])\\s*";
const FUNCTIONAL = "\\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color-mix)\\(";
const colourLiterals = [
  { selector: `Literal[value=/^\\s*${HEX}\\s*$/i]`, message: COLOUR_MESSAGE },
  { selector: `Literal[value=/${IN_CSS}${HEX}\\b/i]`, message: COLOUR_MESSAGE },
  { selector: `TemplateElement[value.raw=/${IN_CSS}${HEX}\\b/i]`, message: COLOUR_MESSAGE },
  { selector: `Literal[value=/${FUNCTIONAL}/i]`, message: COLOUR_MESSAGE },
  { selector: `TemplateElement[value.raw=/${FUNCTIONAL}/i]`, message: COLOUR_MESSAGE },
  { selector: `Literal[value=/^(?:${NAMED_COLOURS.join("|")})$/i]`, message: COLOUR_MESSAGE },
];
const noInnerHtml = {
  selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
  message: "Never render API strings as HTML.",
};
const HTTP_MESSAGE = "Requests live in features/<name>/api/ (through @/api/client where it can).";
const httpGlobals = ["fetch", "EventSource", "XMLHttpRequest", "WebSocket"].map((name) => ({
  name,
  message: HTTP_MESSAGE,
}));
const httpProperties = ["window", "globalThis", "self"].flatMap((object) =>
  ["fetch", "EventSource", "XMLHttpRequest", "WebSocket"].map((property) => ({
    object,
    property,
    message: HTTP_MESSAGE,
  })),
);
const importRules = (openapiFetch) => [
  "error",
  {
    patterns: [
      { group: ["../*", "./index", "**/index"], message: "Use @/ imports; no barrel files." },
      ...(openapiFetch ? [] : [{ group: ["openapi-fetch"], message: "Use @/api/client." }]),
    ],
  },
];

export default tseslint.config(
  { ignores: ["dist", "node_modules", "src/api/schema.ts", "playwright-report", "test-results"] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ["**/*.{ts,tsx}"],
    languageOptions: { ecmaVersion: 2022 },
  },
  {
    files: ["src/**/*.{ts,tsx}", "lint/**/*.ts"],
    languageOptions: { globals: globals.browser },
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { import: importPlugin },
    settings: {
      "import/resolver": { typescript: { project: "./tsconfig.json" }, node: true },
      "import/extensions": [".ts", ".tsx", ".js"],
    },
    rules: {
      // Unresolved imports would slip past the boundaries below, so they are errors themselves.
      "import/no-unresolved": ["error", { ignore: ["\\.module\\.css$"] }],
      "import/no-restricted-paths": ["error", { zones: boundaries }],
      "no-restricted-globals": ["error", ...httpGlobals],
      "no-restricted-properties": ["error", ...httpProperties],
      "no-restricted-imports": importRules(false),
      "no-restricted-syntax": ["error", noInnerHtml, ...colourLiterals],
    },
  },
  {
    // The HTTP layer itself: the typed client, and each feature's request modules.
    files: ["src/api/client.ts", "src/features/*/api/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-globals": "off",
      "no-restricted-properties": "off",
      "no-restricted-imports": importRules(true),
    },
  },
  {
    // The one TypeScript module allowed to name colours.
    files: ["src/lib/tokens.ts"],
    rules: { "no-restricted-syntax": ["error", noInnerHtml] },
  },
  {
    files: ["e2e/**/*.{ts,mjs,js}", "*.config.{ts,js,mjs}"],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
    // Playwright fixtures that need no other fixture are written `async ({}, use) => …`.
    rules: { "no-empty-pattern": ["error", { allowObjectPatternsAsParameters: true }] },
  },
  {
    files: ["e2e/**/*.ts", "*.config.ts"],
    rules: { "no-undef": "off", "no-unused-vars": "off" },
  },
);
