// @vitest-environment node
// The lint rules guard the codebase's boundaries only if they fire: each case below is a
// deliberate violation (or a legal twin) linted as if it were a file at the given path.
import { ESLint } from "eslint";
import stylelint from "stylelint";
import { describe, expect, it, vi } from "vitest";

const eslint = new ESLint({ cwd: new URL("..", import.meta.url).pathname });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

// The first lint builds ESLint's type-aware program (seconds, more on a busy machine): these
// cases check what the rules say, not how fast they say it.
vi.setConfig({ testTimeout: 60_000 });

describe("ESLint boundaries", () => {
  it("stops a feature importing another feature, and lets it import its own modules", async () => {
    const other = 'import { useMe } from "@/features/auth/api/getMe";\nexport const x = useMe;\n';
    expect(await ruleIds("src/features/alerts/components/Probe.tsx", other)).toContain(
      "import/no-restricted-paths",
    );
    const own = 'import { useAlerts } from "@/features/alerts/api/getAlerts";\nexport const x = useAlerts;\n';
    expect(await ruleIds("src/features/alerts/components/Probe.tsx", own)).toEqual([]);
  });

  it("stops shared code importing a feature", async () => {
    const code =
      'import { useSystems } from "@/features/overview/api/getSystems";\nexport const x = useSystems;\n';
    expect(await ruleIds("src/components/ui/Probe.tsx", code)).toContain("import/no-restricted-paths");
    expect(await ruleIds("src/lib/probe.ts", code)).toContain("import/no-restricted-paths");
  });

  it("keeps the HTTP client inside features/*/api", async () => {
    const code = 'import { api } from "@/api/client";\nexport const x = api;\n';
    expect(await ruleIds("src/features/run/hooks/probe.ts", code)).toContain("import/no-restricted-paths");
    expect(await ruleIds("src/components/charts/Probe.tsx", code)).toContain("import/no-restricted-paths");
    expect(await ruleIds("src/features/run/api/probe.ts", code)).toEqual([]);
  });

  it("forbids fetch and EventSource outside features/*/api", async () => {
    const code = 'export const x = () => fetch("/healthz");\nexport const y = () => new EventSource("/e");\n';
    expect(await ruleIds("src/hooks/probe.ts", code)).toEqual([
      "no-restricted-globals",
      "no-restricted-globals",
    ]);
    expect(await ruleIds("src/features/run/api/probe.ts", code)).toEqual([]);
    const viaWindow = 'export const x = () => window.fetch("/healthz");\n';
    expect(await ruleIds("src/lib/probe.ts", viaWindow)).toEqual(["no-restricted-properties"]);
  });

  it("fails on an unresolvable import rather than skipping the boundary check", async () => {
    const code = 'import { x } from "@/features/nowhere/api/missing";\nexport const y = x;\n';
    expect(await ruleIds("src/features/alerts/components/Probe.tsx", code)).toContain("import/no-unresolved");
  });
});

describe("ESLint colours", () => {
  const cases = [
    'export const a = "#fff";',
    'export const a = "1px solid #e3e7ee";',
    "export const a = `0 0 0 3px ${2}, #2563eb`;",
    'export const a = "rgba(0, 0, 0, 0.2)";',
    "export const a = `hsl(${1}, 50%, 50%)`;",
    'export const a = "white";',
    'export const A = () => <path fill="#dc2626" />;',
  ];
  it.each(cases)("rejects %s outside the tokens module", async (code) => {
    expect(await ruleIds("src/components/charts/Probe.tsx", code)).toEqual(["no-restricted-syntax"]);
  });

  it("accepts token references and ordinary strings", async () => {
    const code = [
      'import { color } from "@/lib/tokens";',
      'export const A = () => <path fill={color.fail} stroke="none" />;',
      'export const b = "run #123";',
    ].join("\n");
    expect(await ruleIds("src/components/charts/Probe.tsx", code)).toEqual([]);
  });
});

describe("stylelint colours", () => {
  async function warnings(codeFilename: string, code: string): Promise<string[]> {
    const { results } = await stylelint.lint({ code, codeFilename, configFile: "stylelint.config.mjs" });
    return (results[0]?.warnings ?? []).map((w) => w.rule);
  }

  it("rejects hex, named and functional colours in a component's CSS Module", async () => {
    const code = ".a { color: #fff; }\n.b { color: white; }\n.c { background: rgba(0, 0, 0, 0.1); }\n";
    expect((await warnings("src/features/run/components/Probe.module.css", code)).sort()).toEqual([
      "color-named",
      "color-no-hex",
      "function-disallowed-list",
    ]);
    expect(await warnings("src/app/styles.css", code)).toHaveLength(3);
  });

  it("allows them in the tokens file, and var() everywhere", async () => {
    expect(await warnings("src/app/tokens.css", ":root { --a: #fff; --b: rgba(0, 0, 0, 0.1); }\n")).toEqual(
      [],
    );
    expect(await warnings("src/components/ui/Probe.module.css", ".a { color: var(--a); }\n")).toEqual([]);
  });
});
