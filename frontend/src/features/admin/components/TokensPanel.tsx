import { useState } from "react";
import { Banner } from "@/components/ui/Banner";
import { Button } from "@/components/ui/Button";
import { Choice } from "@/components/ui/Choice";
import { Filters } from "@/components/ui/Filters";
import { Section } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { Table } from "@/components/ui/Table";
import { formatRelative } from "@/lib/format";
import { useCreateToken, useRevokeToken, useTokens } from "@/features/admin/api/tokens";

const SCOPES = ["upload", "agent", "trigger", "admin"] as const;
type Scope = (typeof SCOPES)[number];

/** API tokens: create one (its text shown once), list them by prefix, revoke. */
export function TokensPanel() {
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["upload"]);
  const [systems, setSystems] = useState("");
  const created = create.data;
  return (
    <Section title="API tokens" testId="admin-tokens">
      <Filters label="New token">
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="ci uploads" />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((s) => (
            <Choice
              key={s}
              type="checkbox"
              checked={scopes.includes(s)}
              onChange={(e) =>
                setScopes((now) => (e.target.checked ? [...now, s] : now.filter((x) => x !== s)))
              }
            >
              {s}
            </Choice>
          ))}
        </fieldset>
        <label>
          Systems (blank: every system)
          <input value={systems} onChange={(e) => setSystems(e.target.value)} placeholder="cachex, relay" />
        </label>
        <Button
          disabled={!name.trim() || scopes.length === 0 || create.isPending}
          onClick={() =>
            create.mutate({
              name: name.trim(),
              scopes,
              systems: systems
                .split(/[\s,]+/)
                .map((s) => s.trim())
                .filter(Boolean),
            })
          }
        >
          {create.isPending ? "Creating…" : "Create token"}
        </Button>
      </Filters>
      {create.isError ? <ErrorState error={create.error} /> : null}
      {created ? (
        <Banner tone="warn" testId="token-created">
          Token <strong>{created.name}</strong> created. Copy it now: it is shown this once and never again.
          <pre className="mono" data-testid="token-secret">
            {created.token}
          </pre>
        </Banner>
      ) : null}
      {tokens.isPending ? <Loading label="Loading tokens…" /> : null}
      {tokens.isError ? <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} /> : null}
      {tokens.data ? (
        <Table testId="tokens-table">
          <thead>
            <tr>
              {["Name", "Prefix", "Scopes", "Systems", "Created", "Last used", "State", ""].map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((t) => (
              <tr
                key={t.id}
                data-testid="token-row"
                data-prefix={t.prefix}
                data-revoked={Boolean(t.revoked_at)}
              >
                <td>{t.name}</td>
                <td className="mono">bd_{t.prefix}_…</td>
                <td>{t.scopes.join(", ")}</td>
                <td>{t.systems.length ? t.systems.join(", ") : "every system"}</td>
                <td>{formatRelative(t.created_at)}</td>
                <td>{t.last_used_at ? formatRelative(t.last_used_at) : "never"}</td>
                <td>{t.revoked_at ? `revoked ${formatRelative(t.revoked_at)}` : "active"}</td>
                <td>
                  {t.revoked_at ? null : (
                    <Button
                      size="small"
                      variant="danger"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(t.id)}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
      {revoke.isError ? <ErrorState error={revoke.error} /> : null}
    </Section>
  );
}
