// CSS lint: colours are written only in src/app/tokens.css; everything else uses var(--token).
const COLOUR_FUNCTIONS = [
  "rgb",
  "rgba",
  "hsl",
  "hsla",
  "hwb",
  "lab",
  "lch",
  "oklab",
  "oklch",
  "color-mix",
  "color",
];

export default {
  rules: {
    "color-no-hex": true,
    "color-named": "never",
    "function-disallowed-list": COLOUR_FUNCTIONS,
    "color-no-invalid-hex": true,
    "custom-property-no-missing-var-function": true,
    "block-no-empty": true,
    "declaration-block-no-duplicate-properties": true,
    "no-duplicate-selectors": true,
    "no-invalid-double-slash-comments": true,
    "property-no-unknown": true,
    "unit-no-unknown": true,
    "selector-pseudo-class-no-unknown": [true, { ignorePseudoClasses: ["global"] }],
  },
  overrides: [
    {
      files: ["src/app/tokens.css"],
      rules: { "color-no-hex": null, "color-named": null, "function-disallowed-list": null },
    },
  ],
};
