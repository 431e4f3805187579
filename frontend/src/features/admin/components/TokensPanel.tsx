import { useState } from "react";
import { Banner } from "@/components/ui/Banner";
import { Button } from "@/components/ui/Button";
import { Choice } from "@/components/ui/Choice";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { FieldError } from "@/components/ui/FieldError";
import { Filters } from "@/components/ui/Filters";
import { Section } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { Table } from "@/components/ui/Table";
import { allShown, fieldErrors, type FieldErrors, type Wording } from "@/lib/fieldErrors";
import { formatRelative } from "@/lib/format";
import { useCreateToken, useRevokeToken, useTokens } from "@/features/admin/api/tokens";

const SCOPES = ["upload", "agent", "trigger", "admin"] as const;
type Scope = (typeof SCOPES)[number];
/** TokenCreate's limit on `name` (backend auth/schemas.py). */
export const NAME_MAX = 120;
const FIELDS = ["name", "scopes", "systems"] as const;
const WORDING: Wording = {
  systems: (item) =>
    `${item ? `“${item}” is not a system slug` : "A system is not a slug"}: use lower-case letters, ` +
    "digits, '_', '.' or '-' (e.g. cachex), and separate systems with commas.",
  name: () => "Use printable characters only.",
};

/** The systems field: slugs separated by commas (a space inside one is an error, not a split). */
export const splitSystems = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** API tokens: create one (its text shown once), list them by prefix, revoke. */
export function TokensPanel() {
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["upload"]);
  const [systems, setSystems] = useState("");
  const created = create.data;
  const [errors, setErrors] = useState<FieldErrors>({});
  const tooLong = name.trim().length > NAME_MAX;
  const nameError = errors.name ?? (tooLong ? `Use at most ${NAME_MAX} characters.` : undefined);
  const edited = (field: string) =>
    setErrors((now) => {
      const next = { ...now };
      delete next[field];
      return next;
    });
  return (
    <Section title="API tokens" testId="admin-tokens">
      <Filters label="New token">
        <label>
          Name (at most {NAME_MAX} characters)
          <input
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              edited("name");
            }}
            placeholder="ci uploads"
            maxLength={NAME_MAX}
            aria-invalid={Boolean(nameError)}
            aria-describedby="token-name-error"
          />
          <FieldError id="token-name-error" message={nameError} />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((s) => (
            <Choice
              key={s}
              type="checkbox"
              checked={scopes.includes(s)}
              onChange={(e) => {
                setScopes((now) => (e.target.checked ? [...now, s] : now.filter((x) => x !== s)));
                edited("scopes");
              }}
            >
              {s}
            </Choice>
          ))}
          <FieldError id="token-scopes-error" message={errors.scopes} />
        </fieldset>
        <label>
          Systems, separated by commas (blank: every system)
          <input
            value={systems}
            onChange={(e) => {
              setSystems(e.target.value);
              edited("systems");
            }}
            placeholder="cachex, relay"
            aria-invalid={Boolean(errors.systems)}
            aria-describedby="token-systems-error"
          />
          <FieldError id="token-systems-error" message={errors.systems} />
        </label>
        <Button
          disabled={!name.trim() || tooLong || scopes.length === 0 || create.isPending}
          onClick={() => {
            const body = { name: name.trim(), scopes, systems: splitSystems(systems) };
            create.mutate(body, {
              onError: (e) => setErrors(fieldErrors(e, FIELDS, WORDING, { systems: body.systems })),
              onSuccess: () => setErrors({}),
            });
          }}
        >
          {create.isPending ? "Creating…" : "Create token"}
        </Button>
      </Filters>
      {create.isError && !allShown(create.error, errors) ? <ErrorState error={create.error} /> : null}
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
                    <ConfirmButton
                      disabled={revoke.isPending}
                      title={`Revoke token ${t.name}?`}
                      consequence={
                        <>
                          Everything using <span className="mono">bd_{t.prefix}_…</span>
                          {t.scopes.includes("agent")
                            ? " — including the runner agents that sign in with it —"
                            : ""}{" "}
                          stops working within seconds. A revoked token cannot be restored: make a new one.
                        </>
                      }
                      onConfirm={() => revoke.mutate(t.id)}
                    >
                      Revoke
                    </ConfirmButton>
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
