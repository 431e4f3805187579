import clsx from "clsx";
import { Button } from "@/components/ui/Button";
import { Section } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { useSearchId } from "@/hooks/useSearchId";
import { formatNumber, formatParameters } from "@/lib/format";
import { formatWeight } from "@/lib/profiles";
import { useProfile, useRunProfiles } from "@/features/run/api/getProfiles";
import styles from "@/features/run/components/ProfilesPanel.module.css";
import { ProfileView } from "@/features/run/components/ProfileView";

function OpenProfile({ profileId }: { profileId: number }) {
  const profile = useProfile(profileId);
  if (profile.isPending) return <Loading label="Loading profile…" />;
  if (profile.isError) return <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />;
  return <ProfileView profile={profile.data} />;
}

/** The run's profiles; opening one (kept in the URL as `flame=<id>`) shows its flame graph and top functions. */
export function ProfilesPanel({ runId }: { runId: number }) {
  const profiles = useRunProfiles(runId);
  const [open, setOpen] = useSearchId("flame");
  if (profiles.isPending || (profiles.isSuccess && profiles.data.length === 0)) return null;
  return (
    <Section title="Profiles" testId="run-profiles">
      {profiles.isError ? (
        <ErrorState error={profiles.error} onRetry={() => void profiles.refetch()} />
      ) : (
        <>
          <p className="muted small">
            Where each benchmark spent its cost in this run, per function (self: in the function itself;
            inclusive: with what it calls).
          </p>
          <ul className={styles.list}>
            {profiles.data.map((p) => {
              const params = formatParameters(p.parameters);
              const isOpen = open === p.id;
              return (
                <li key={p.id} data-testid="run-profile" data-profile-id={p.id}>
                  <Button
                    variant="link"
                    aria-pressed={isOpen}
                    className={clsx(isOpen && styles.open)}
                    onClick={() => setOpen(isOpen ? null : p.id)}
                  >
                    {p.benchmark}
                    {params ? ` (${params})` : ""} · {p.kind}
                  </Button>{" "}
                  <span className="muted small">
                    {formatWeight(p.total, p.unit)} · {formatNumber(p.stacks_count)} stacks
                    {p.metric ? ` · explains ${p.metric}` : ""}
                  </span>
                </li>
              );
            })}
          </ul>
          {open !== null && profiles.data.some((p) => p.id === open) ? (
            <OpenProfile profileId={open} />
          ) : null}
        </>
      )}
    </Section>
  );
}
