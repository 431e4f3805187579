import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import type { Schemas } from "@/api/client";
import { useMe } from "@/lib/auth";
import { useCreateRun } from "@/features/system/api/createRun";

const PROFILES = ["quick", "standard", "full"] as const;
type Profile = (typeof PROFILES)[number];

interface Props {
  system: Schemas["SystemDetail"];
}

/** The "Run benchmarks" button and its dialog: ref, profile, benchmarks → the new run's page. */
export function RunBenchmarksDialog({ system }: Props) {
  const me = useMe();
  const navigate = useNavigate();
  const create = useCreateRun();
  const dialog = useRef<HTMLDialogElement>(null);
  const profiles = system.profiles ?? {};
  const offered = PROFILES.filter((p) => p in profiles);
  const [ref, setRef] = useState("main");
  const [profile, setProfile] = useState<Profile>(offered[0] ?? "quick");
  const [picked, setPicked] = useState<string[]>([]);
  const scenarios = (profiles[profile]?.scenarios as string[] | undefined) ?? [];

  useEffect(() => setPicked([]), [profile]);

  if (offered.length === 0) {
    return <span className="muted small">No runner agent has registered this system yet.</span>;
  }
  if (!me.data) {
    return (
      <Link className="btn" to={`/sign-in?next=${encodeURIComponent(`/systems/${system.slug}`)}`}>
        Sign in to run benchmarks
      </Link>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      {
        system: system.slug,
        ref: ref.trim(),
        profile,
        benchmarks: picked.length ? picked : null,
        trigger: "web",
      },
      { onSuccess: (run) => void navigate(`/runs/${run.id}`) },
    );
  };
  const toggle = (name: string) =>
    setPicked((now) => (now.includes(name) ? now.filter((n) => n !== name) : [...now, name]));

  return (
    <>
      <button type="button" className="btn btn-primary" onClick={() => dialog.current?.showModal()}>
        Run benchmarks
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby="run-dialog-title">
        <form onSubmit={submit} className="dialog-form">
          <h2 id="run-dialog-title">Run {system.name} benchmarks</h2>
          <label>
            Ref <span className="muted small">(branch, tag or commit of this repository)</span>
            <input value={ref} onChange={(e) => setRef(e.target.value)} required maxLength={200} />
          </label>
          <fieldset>
            <legend>Profile</legend>
            {offered.map((p) => (
              <label key={p} className="check">
                <input
                  type="radio"
                  name="profile"
                  value={p}
                  checked={profile === p}
                  onChange={() => setProfile(p)}
                />
                {p}
                <span className="muted small"> {String(profiles[p]?.description ?? "")}</span>
              </label>
            ))}
          </fieldset>
          {scenarios.length > 0 ? (
            <fieldset>
              <legend>
                Benchmarks <span className="muted small">(none ticked: all)</span>
              </legend>
              <div className="check-grid">
                {scenarios.map((name) => (
                  <label key={name} className="check">
                    <input type="checkbox" checked={picked.includes(name)} onChange={() => toggle(name)} />
                    {name}
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}
          {create.isError ? (
            <div className="banner banner-error" role="alert">
              {create.error instanceof Error ? create.error.message : "The run could not be queued"}
            </div>
          ) : null}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={() => dialog.current?.close()}>
              Close
            </button>
            <button type="submit" className="btn btn-primary" disabled={create.isPending}>
              {create.isPending ? "Queueing…" : "Start run"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
