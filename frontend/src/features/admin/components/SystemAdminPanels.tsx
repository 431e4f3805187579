import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { Filters } from "@/components/ui/Filters";
import { Section } from "@/components/ui/Page";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { Table } from "@/components/ui/Table";
import {
  useManifest,
  useMetrics,
  useSetBounds,
  useSetRepository,
  useSetThresholds,
} from "@/features/admin/api/systems";
import { ThresholdRow } from "@/features/admin/components/ThresholdRow";

/** Per-metric thresholds of one system, each change audited (who and when shown). */
export function ThresholdsPanel({ slug }: { slug: string }) {
  const metrics = useMetrics(slug);
  const save = useSetThresholds(slug);
  const saveBounds = useSetBounds(slug);
  return (
    <Section title="Thresholds" testId="admin-thresholds">
      <p className="muted small">
        Percent changes against the baseline: beyond warn a series is flagged, beyond fail it alerts. Every
        change is audited.
      </p>
      {save.isError ? <ErrorState error={save.error} /> : null}
      {saveBounds.isError ? <ErrorState error={saveBounds.error} /> : null}
      {metrics.isPending ? <Loading label="Loading metrics…" /> : null}
      {metrics.isError ? <ErrorState error={metrics.error} onRetry={() => void metrics.refetch()} /> : null}
      {metrics.data && metrics.data.length === 0 ? <Empty title="This system has no metrics yet" /> : null}
      {metrics.data?.length ? (
        <Table testId="thresholds-table">
          <thead>
            <tr>
              {["Metric", "Unit", "Warn %", "Fail %", "Value range", "Last changed", ""].map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {metrics.data.map((m) => (
              <ThresholdRow
                key={`${m.name}-${m.warn_threshold}-${m.fail_threshold}-${m.min_value}-${m.max_value}`}
                metric={m}
                pending={save.isPending || saveBounds.isPending}
                onSave={(warn, fail) => save.mutate({ metric: m.name, warn, fail })}
                onSaveBounds={(min, max) => saveBounds.mutate({ metric: m.name, min, max })}
              />
            ))}
          </tbody>
        </Table>
      ) : null}
    </Section>
  );
}

/** The manifest the system's runner registered (read-only) and its repository URL. */
export function ManifestPanel({ slug }: { slug: string }) {
  const view = useManifest(slug);
  const save = useSetRepository(slug);
  const [repo, setRepo] = useState<string | null>(null);
  const current = view.data?.repository ?? "";
  const value = repo ?? current;
  return (
    <Section title="Manifest and repository" testId="admin-manifest">
      <Filters label="Repository">
        <label>
          Repository URL (alerts link their commit range there)
          <input
            type="url"
            value={value}
            placeholder="https://github.com/owner/repo"
            onChange={(e) => setRepo(e.target.value)}
            size={48}
          />
        </label>
        <Button
          disabled={save.isPending || value === current}
          onClick={() => save.mutate(value.trim() || null, { onSuccess: () => setRepo(null) })}
        >
          Save repository
        </Button>
      </Filters>
      {save.isError ? <ErrorState error={save.error} /> : null}
      {view.isPending ? <Loading label="Loading manifest…" /> : null}
      {view.isError ? <ErrorState error={view.error} onRetry={() => void view.refetch()} /> : null}
      {view.data && !view.data.manifest ? (
        <Empty title="No manifest registered">
          This system's results come from uploads only: no runner agent has registered a manifest.
        </Empty>
      ) : null}
      {view.data?.manifest ? (
        <pre className="mono small" data-testid="manifest-json">
          {JSON.stringify(view.data.manifest, null, 2)}
        </pre>
      ) : null}
    </Section>
  );
}
