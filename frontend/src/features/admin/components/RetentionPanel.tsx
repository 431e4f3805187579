import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { Section } from "@/components/ui/Page";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { Table } from "@/components/ui/Table";
import type { Schemas } from "@/api/types";
import { formatRelative } from "@/lib/format";
import { useSystemNames } from "@/features/admin/api/systems";
import { useRetentionPreview, useRetentionRules, useSetRetentionRules } from "@/features/admin/api/retention";

type Rule = Schemas["RuleIn"];
interface Draft {
  system: string;
  branch: string;
  del: string;
  summ: string;
}

const toDraft = (r: Rule): Draft => ({
  system: r.system ?? "",
  branch: r.branch,
  del: r.delete_after_days?.toString() ?? "",
  summ: r.summarise_after_days?.toString() ?? "",
});

// An age the server checks (422 with words): blank is "never", anything else is sent as typed.
const days = (v: string): number | null => (v.trim() === "" ? null : Number(v));

const toRule = (d: Draft): Rule => ({
  system: d.system || null,
  branch: d.branch,
  delete_after_days: days(d.del),
  summarise_after_days: days(d.summ),
});

/** The retention rules (tried in order; no rule keeps everything) and their dry run. */
export function RetentionPanel() {
  const rules = useRetentionRules();
  if (rules.isPending) return <Loading label="Loading retention rules…" />;
  if (rules.isError) return <ErrorState error={rules.error} onRetry={() => void rules.refetch()} />;
  return <RetentionEditor key={rules.data.updated_at ?? "never"} stored={rules.data} />;
}

function RetentionEditor({ stored }: { stored: Schemas["RulesRead"] }) {
  const systems = useSystemNames();
  const save = useSetRetentionRules();
  const [drafts, setDrafts] = useState<Draft[]>(stored.rules.map(toDraft));
  const edit = (i: number, patch: Partial<Draft>) =>
    setDrafts((all) => all.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  return (
    <>
      <Section title="Retention rules" testId="admin-retention">
        <p className="muted small">
          The first rule whose system and branch pattern match a run decides it: runs older than the delete
          age go, runs older than the summarise age lose their raw samples (their points stay). Blank ages
          keep forever; no rule keeps everything. Runs an open alert or a bisection names are never touched.
          {stored.updated_by
            ? ` Last set by ${stored.updated_by} ${formatRelative(stored.updated_at ?? "")}.`
            : ""}
        </p>
        <Table testId="retention-rules">
          <thead>
            <tr>
              {["#", "System", "Branch pattern", "Delete after (days)", "Summarise after (days)", ""].map(
                (h) => (
                  <th key={h}>{h}</th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {drafts.map((d, i) => (
              <tr key={i} data-testid="retention-rule">
                <td>{i + 1}</td>
                <td>
                  <select
                    aria-label="System"
                    value={d.system}
                    onChange={(e) => edit(i, { system: e.target.value })}
                  >
                    <option value="">every system</option>
                    {(systems.data ?? []).map((s) => (
                      <option key={s.slug} value={s.slug}>
                        {s.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <input
                    aria-label="Branch pattern"
                    value={d.branch}
                    onChange={(e) => edit(i, { branch: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label="Delete after days"
                    inputMode="numeric"
                    value={d.del}
                    onChange={(e) => edit(i, { del: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label="Summarise after days"
                    inputMode="numeric"
                    value={d.summ}
                    onChange={(e) => edit(i, { summ: e.target.value })}
                  />
                </td>
                <td>
                  <Button
                    size="small"
                    variant="secondary"
                    onClick={() => setDrafts((all) => all.filter((_, j) => j !== i))}
                  >
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
        <p>
          <Button
            variant="secondary"
            onClick={() => setDrafts((all) => [...all, { system: "", branch: "*", del: "", summ: "" }])}
          >
            Add rule
          </Button>{" "}
          <Button disabled={save.isPending} onClick={() => save.mutate(drafts.map(toRule))}>
            {save.isPending ? "Saving…" : "Save rules"}
          </Button>
        </p>
        {save.isError ? <ErrorState error={save.error} /> : null}
      </Section>
      <RetentionPreview />
    </>
  );
}

function RetentionPreview() {
  const preview = useRetentionPreview();
  return (
    <Section title="Dry run: what the rules would remove now" testId="retention-preview">
      {preview.isPending ? <Loading label="Working out what would go…" /> : null}
      {preview.isError ? <ErrorState error={preview.error} onRetry={() => void preview.refetch()} /> : null}
      {preview.data ? (
        <>
          <p data-testid="retention-totals">
            {preview.data.delete_runs} runs ({preview.data.delete_measurements} measurements) deleted,{" "}
            {preview.data.summarise_runs} runs ({preview.data.summarise_measurements} measurements)
            summarised, {preview.data.kept_runs} kept because an alert, a bisection or a baseline names them.
          </p>
          {preview.data.branches.length === 0 ? <Empty title="No branches yet" /> : null}
          {preview.data.branches.length ? (
            <Table testId="retention-branches">
              <thead>
                <tr>
                  {["System", "Branch", "Rule", "Runs", "Deleted", "Summarised", "Kept (referenced)"].map(
                    (h) => (
                      <th key={h}>{h}</th>
                    ),
                  )}
                </tr>
              </thead>
              <tbody>
                {preview.data.branches.map((b) => (
                  <tr key={`${b.system}/${b.branch}`} data-testid="retention-branch" data-branch={b.branch}>
                    <td>{b.system}</td>
                    <td>{b.branch}</td>
                    <td>{b.rule ?? "none: kept"}</td>
                    <td>{b.runs}</td>
                    <td>
                      {b.delete_runs} runs, {b.delete_measurements} measurements
                    </td>
                    <td>
                      {b.summarise_runs} runs, {b.summarise_measurements} measurements
                    </td>
                    <td>{b.kept_runs.length ? b.kept_runs.map((id) => `#${id}`).join(", ") : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : null}
        </>
      ) : null}
    </Section>
  );
}
