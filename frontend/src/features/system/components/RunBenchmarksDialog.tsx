import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import type { Schemas } from "@/api/types";
import { Banner } from "@/components/ui/Banner";
import { Button, ButtonLink } from "@/components/ui/Button";
import { Choice } from "@/components/ui/Choice";
import { Dialog, DialogActions } from "@/components/ui/Dialog";
import { useSignedInUser } from "@/lib/session";
import { useCreateRun } from "@/features/system/api/createRun";
import styles from "@/features/system/components/RunBenchmarksDialog.module.css";

// The usual profiles first, then any other the manifest declares (relay's instructions).
const USUAL = ["quick", "standard", "full"];
type Profile = string;

/** The "Run benchmarks" button and its dialog: ref, profile, benchmarks → the new run's page. */
export function RunBenchmarksDialog({ system }: { system: Schemas["SystemDetail"] }) {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const create = useCreateRun();
  const [open, setOpen] = useState(false);
  const profiles = system.profiles ?? {};
  const offered = [
    ...USUAL.filter((p) => p in profiles),
    ...Object.keys(profiles)
      .filter((p) => !USUAL.includes(p))
      .sort(),
  ];
  const [ref, setRef] = useState("main");
  const [profile, setProfile] = useState<Profile>(offered[0] ?? "quick");
  const [picked, setPicked] = useState<string[]>([]);
  const scenarios = (profiles[profile]?.scenarios as string[] | undefined) ?? [];

  if (offered.length === 0) {
    return <span className="muted small">No runner agent has registered this system yet.</span>;
  }
  if (!user) {
    return (
      <ButtonLink variant="primary" to={`/sign-in?next=${encodeURIComponent(`/systems/${system.slug}`)}`}>
        Sign in to run benchmarks
      </ButtonLink>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = { system: system.slug, ref: ref.trim(), profile, benchmarks: picked.length ? picked : null };
    // The API warns when no agent of the system is online; the run page says so while it waits.
    create.mutate(
      { ...body, trigger: "web" },
      { onSuccess: (run) => void navigate(`/runs/${run.id}`, { state: { warning: run.warning ?? null } }) },
    );
  };
  const pickProfile = (p: Profile) => {
    setProfile(p);
    setPicked([]);
  };
  const toggle = (name: string) =>
    setPicked((now) => (now.includes(name) ? now.filter((n) => n !== name) : [...now, name]));

  return (
    <>
      <Button onClick={() => setOpen(true)}>Run benchmarks</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={`Run ${system.name} benchmarks`}>
        <form onSubmit={submit} className={styles.form}>
          <label className={styles.field}>
            Ref <span className="muted small">(branch, tag or commit of this repository)</span>
            <input value={ref} onChange={(e) => setRef(e.target.value)} required maxLength={200} />
          </label>
          <fieldset className={styles.group}>
            <legend>Profile</legend>
            {offered.map((p) => (
              <Choice
                key={p}
                type="radio"
                name="profile"
                value={p}
                checked={profile === p}
                onChange={() => pickProfile(p)}
              >
                {p} <span className="muted small">{String(profiles[p]?.description ?? "")}</span>
              </Choice>
            ))}
          </fieldset>
          {scenarios.length > 0 ? (
            <fieldset className={styles.group}>
              <legend>
                Benchmarks <span className="muted small">(none ticked: all)</span>
              </legend>
              <div className={styles.grid}>
                {scenarios.map((name) => (
                  <Choice
                    key={name}
                    type="checkbox"
                    checked={picked.includes(name)}
                    onChange={() => toggle(name)}
                  >
                    {name}
                  </Choice>
                ))}
              </div>
            </fieldset>
          ) : null}
          {create.isError ? (
            <Banner tone="error">
              {create.error instanceof Error ? create.error.message : "The run could not be queued"}
            </Banner>
          ) : null}
          <DialogActions>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Close
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Queueing…" : "Start run"}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
