import type { Schemas } from "@/api/types";
import { Button } from "@/components/ui/Button";
import { Filters } from "@/components/ui/Filters";
import { SearchPicker } from "@/components/ui/SearchPicker";
import { Segment, Segmented } from "@/components/ui/Segmented";
import styles from "@/features/backtest/components/BacktestPage.module.css";
import {
  describeOption,
  type BacktestForm as Form,
  type Pair,
  type SeriesOption,
} from "@/features/backtest/hooks/shape";

interface BacktestFormProps {
  system: Schemas["SystemDetail"];
  options: readonly SeriesOption[];
  form: Form;
  onChange: (patch: Partial<Form>) => void;
  onReplay: () => void;
  pending: boolean;
}

function PairInputs({ label, pair, onChange }: { label: string; pair: Pair; onChange: (p: Pair) => void }) {
  return (
    <>
      <label>
        {label ? `${label} warn %` : "Warn %"}
        <input
          type="number"
          inputMode="decimal"
          min="0"
          step="any"
          className={styles.number}
          value={pair.warn}
          onChange={(e) => onChange({ ...pair, warn: e.target.value })}
        />
      </label>
      <label>
        {label ? `${label} fail %` : "Fail %"}
        <input
          type="number"
          inputMode="decimal"
          min="0"
          max="1000"
          step="any"
          className={styles.number}
          value={pair.fail}
          onChange={(e) => onChange({ ...pair, fail: e.target.value })}
        />
      </label>
    </>
  );
}

/** Which series to replay, under which thresholds, and the Replay button. */
export function BacktestForm({ system, options, form, onChange, onReplay, pending }: BacktestFormProps) {
  return (
    <div className={styles.form} data-testid="backtest-form">
      <Filters label="Backtest">
        <fieldset>
          <legend>Series</legend>
          <Segmented role="group" label="Series to replay">
            <Segment selected={form.scope === "all"} onSelect={() => onChange({ scope: "all" })}>
              All series
            </Segment>
            <Segment selected={form.scope === "one"} onSelect={() => onChange({ scope: "one" })}>
              One series
            </Segment>
          </Segmented>
        </fieldset>
        {form.scope === "one" ? (
          <SearchPicker
            label="Which series"
            items={options}
            keyOf={(o) => o.key}
            describe={describeOption}
            haystack={describeOption}
            value={form.series}
            onChange={(series) => onChange({ series })}
            searchLabel="Search series"
            selectLabel="Series"
            plural="series"
            placeholder="benchmark, parameter or metric"
            testId="series-picker"
          />
        ) : null}
        <label>
          Branch
          <select value={form.branch} onChange={(e) => onChange({ branch: e.target.value })}>
            {system.branches.map((b) => (
              <option key={b.name} value={b.name}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Testbed
          <select value={form.testbed ?? ""} onChange={(e) => onChange({ testbed: e.target.value || null })}>
            <option value="">Every testbed</option>
            {system.testbeds.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <PairInputs label="" pair={form.thresholds} onChange={(thresholds) => onChange({ thresholds })} />
        <label>
          Runs per series
          <input
            type="number"
            min="20"
            max="5000"
            step="1"
            className={styles.number}
            value={form.maxRuns}
            onChange={(e) => onChange({ maxRuns: e.target.value })}
          />
        </label>
        <Button onClick={onReplay} disabled={pending} data-testid="replay">
          Replay
        </Button>
      </Filters>
      {system.metrics.length > 1 ? (
        <details className={styles.perMetric} data-testid="per-metric">
          <summary>Per-metric thresholds (a metric follows the ones above unless set here)</summary>
          <Filters label="Per-metric thresholds">
            {system.metrics.map((m) => (
              <PairInputs
                key={m.name}
                label={m.name}
                pair={form.perMetric[m.name] ?? form.thresholds}
                onChange={(p) => onChange({ perMetric: { ...form.perMetric, [m.name]: p } })}
              />
            ))}
          </Filters>
        </details>
      ) : null}
    </div>
  );
}
