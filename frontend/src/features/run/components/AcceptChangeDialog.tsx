import { useState, type FormEvent } from "react";
import type { Schemas } from "@/api/types";
import { Banner } from "@/components/ui/Banner";
import { Button, ButtonLink } from "@/components/ui/Button";
import { Dialog, DialogActions } from "@/components/ui/Dialog";
import { formatParameters, shortCommit } from "@/lib/format";
import { describeProblem } from "@/lib/problem";
import { useAcceptChange } from "@/features/run/api/acceptChange";
import styles from "@/features/run/components/AcceptChangeDialog.module.css";
import type { Measurement } from "@/features/run/hooks/measurementView";

interface AcceptChangeDialogProps {
  run: Pick<Schemas["RunDetail"], "id" | "system" | "commit">;
  /** The measurement whose series changes here; null: the dialog is closed. */
  measurement: Measurement | null;
  onClose: () => void;
  onAccepted: (measurementId: number, change: Schemas["ChangeRead"]) => void;
}

const NOTE_MAX = 500;

/**
 * "Accept as expected change…": asks for a note, then restarts the series' baseline at this run.
 * Render it with `key` = the measurement's id, so that each measurement gets a fresh form.
 */
export function AcceptChangeDialog({ run, measurement: m, onClose, onAccepted }: AcceptChangeDialogProps) {
  const accept = useAcceptChange();
  const [note, setNote] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!m || !note.trim()) return;
    const body = {
      system: run.system,
      benchmark: m.benchmark,
      params: m.params_key,
      metric: m.metric,
      run_id: run.id,
      note: note.trim(),
    };
    accept.mutate(body, { onSuccess: (change) => onAccepted(m.measurement_id, change) });
  };
  const params = m ? formatParameters(m.parameters) : "";
  return (
    <Dialog open={m !== null} onClose={onClose} title="Accept as expected change">
      {m ? (
        <form onSubmit={submit} className={styles.form}>
          <p>
            <strong>{m.benchmark}</strong>
            {params ? <span className="muted"> ({params})</span> : null} · {m.metric}, from run #{run.id}{" "}
            <span className="mono">{shortCommit(run.commit)}</span> on.
          </p>
          <p className="muted small">
            The series&apos; baseline restarts at this run and its open alert closes. Everyone sees the
            change, with your note, on the chart; it can be taken back.
          </p>
          {accept.isSuccess ? (
            <p role="status" data-testid="change-accepted">
              Accepted: “{accept.data.note}”. The baseline restarts at run #{accept.data.run_id}.
            </p>
          ) : (
            <label className={styles.field}>
              Note <span className="muted small">(why this change is expected)</span>
              <textarea
                value={note}
                onChange={(e) => setNote(e.target.value)}
                required
                maxLength={NOTE_MAX}
                rows={3}
                placeholder="expected: new allocator"
              />
            </label>
          )}
          {accept.isError ? (
            <Banner tone="error" testId="accept-error">
              {describeProblem(accept.error, "accept this change")}
            </Banner>
          ) : null}
          <DialogActions>
            {accept.isSuccess ? (
              <>
                <ButtonLink to={m.series_url}>See it on the chart</ButtonLink>
                <Button onClick={onClose}>Close</Button>
              </>
            ) : (
              <>
                <Button variant="secondary" onClick={onClose} disabled={accept.isPending}>
                  Cancel
                </Button>
                <Button type="submit" disabled={accept.isPending || !note.trim()}>
                  {accept.isPending ? "Accepting…" : "Accept change"}
                </Button>
              </>
            )}
          </DialogActions>
        </form>
      ) : null}
    </Dialog>
  );
}
