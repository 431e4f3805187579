import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { Filters } from "@/components/ui/Filters";
import { Section } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { useSetSource, useSource, type SourceUpdate } from "@/features/admin/api/source";

type View = NonNullable<ReturnType<typeof useSource>["data"]>;

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((b) => b.trim())
    .filter(Boolean);

/** A new system from its repository URL: the source is its registration (an agent then comes). */
export function NewSystemPanel({ onCreated }: { onCreated: (slug: string) => void }) {
  const save = useSetSource();
  const [slug, setSlug] = useState("");
  const [url, setUrl] = useState("");
  const ready = /^[a-z0-9][a-z0-9_.-]{0,63}$/.test(slug) && url.trim() !== "";
  return (
    <Section title="New system" testId="admin-new-system">
      <Filters label="New system">
        <label>
          Slug
          <input
            value={slug}
            onChange={(e) => setSlug(e.target.value.toLowerCase())}
            placeholder="myproject"
          />
        </label>
        <label>
          Repository URL
          <input
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://github.com/you/project.git"
            size={48}
          />
        </label>
        <Button
          disabled={!ready || save.isPending}
          onClick={() =>
            save.mutate(
              { slug, body: { source_url: url.trim(), followed_branches: [] } },
              { onSuccess: () => onCreated(slug) },
            )
          }
        >
          Create system
        </Button>
      </Filters>
      {save.isError ? <ErrorState error={save.error} /> : null}
    </Section>
  );
}

/** A system's source: the URL agents clone, its branches, the webhook secret, a poll period. */
export function SourcePanel({ slug }: { slug: string }) {
  const view = useSource(slug);
  return (
    <Section title="Source" testId="admin-source">
      {view.isPending ? <Loading label="Loading source…" /> : null}
      {view.isError ? <ErrorState error={view.error} onRetry={() => void view.refetch()} /> : null}
      {view.data ? <SourceForm key={JSON.stringify(view.data)} slug={slug} view={view.data} /> : null}
    </Section>
  );
}

function SourceForm({ slug, view }: { slug: string; view: View }) {
  const save = useSetSource();
  const [url, setUrl] = useState(view.source_url ?? "");
  const [branch, setBranch] = useState(view.default_branch);
  const [followed, setFollowed] = useState(view.followed_branches.join(", "));
  const [poll, setPoll] = useState(view.poll_interval_s ? String(view.poll_interval_s / 60) : "");
  const [secret, setSecret] = useState("");
  const submit = () => {
    const body: SourceUpdate = {
      source_url: url.trim() || null,
      default_branch: branch.trim() || null,
      followed_branches: list(followed),
      poll_interval_s: poll.trim() ? Math.round(Number(poll) * 60) : null,
    };
    if (secret) body.hook_secret = secret;
    save.mutate({ slug, body }, { onSuccess: () => setSecret("") });
  };
  return (
    <>
      <Filters label="Source">
        <label>
          Repository URL (agents clone it)
          <input value={url} onChange={(e) => setUrl(e.target.value)} size={48} />
        </label>
        <label>
          Default branch
          <input value={branch} onChange={(e) => setBranch(e.target.value)} />
        </label>
        <label>
          Followed branches (comma-separated)
          <input value={followed} onChange={(e) => setFollowed(e.target.value)} />
        </label>
        <label>
          Poll every (minutes, empty: webhooks only)
          <input inputMode="numeric" value={poll} onChange={(e) => setPoll(e.target.value)} size={6} />
        </label>
        <label>
          Webhook secret ({view.hook_secret_set ? "set: empty keeps it" : "not set"})
          <input
            type="password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            autoComplete="new-password"
          />
        </label>
        <Button disabled={save.isPending} onClick={submit}>
          Save source
        </Button>
      </Filters>
      {save.isError ? <ErrorState error={save.error} /> : null}
      {save.isSuccess ? <p className="muted small">Saved (audited).</p> : null}
      <p className="muted small" data-testid="source-hint">
        Webhook: <code>/api/v1/hooks/github?system={slug}</code> (or <code>…/hooks/gitlab</code>) with the
        secret. An agent: <code>benchdash-runner --system {slug} --api …</code> with a token of scopes agent
        and upload.
      </p>
    </>
  );
}
