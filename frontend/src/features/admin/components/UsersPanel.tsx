import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { Choice } from "@/components/ui/Choice";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { FieldError } from "@/components/ui/FieldError";
import { Filters } from "@/components/ui/Filters";
import { Section } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { Table } from "@/components/ui/Table";
import { allShown, fieldErrors, type FieldErrors } from "@/lib/fieldErrors";
import { formatRelative } from "@/lib/format";
import { useCreateUser, useSetUserDisabled, useUsers } from "@/features/admin/api/users";

const WORDING = {
  username: () =>
    "Start with a letter or digit, then use letters, digits, '_', '.', '@' or '-' (at most 120, no spaces).",
};

/** Users: create one, disable (their sessions end) or enable. */
export function UsersPanel({ me }: { me: string }) {
  const users = useUsers();
  const create = useCreateUser();
  const toggle = useSetUserDisabled();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [isAdmin, setIsAdmin] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  return (
    <Section title="Users" testId="admin-users">
      <Filters label="New user">
        <label>
          User name
          <input
            value={username}
            onChange={(e) => {
              setUsername(e.target.value);
              setErrors(({ password }) => ({ password }));
            }}
            autoComplete="off"
            maxLength={120}
            aria-invalid={Boolean(errors.username)}
            aria-describedby="user-name-error"
          />
          <FieldError id="user-name-error" message={errors.username} />
        </label>
        <label>
          Password (12+ characters)
          <input
            type="password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setErrors(({ username }) => ({ username }));
            }}
            autoComplete="new-password"
            aria-invalid={Boolean(errors.password)}
            aria-describedby="user-password-error"
          />
          <FieldError id="user-password-error" message={errors.password} />
        </label>
        <Choice type="checkbox" checked={isAdmin} onChange={(e) => setIsAdmin(e.target.checked)}>
          admin
        </Choice>
        <Button
          disabled={!username.trim() || password.length < 12 || create.isPending}
          onClick={() =>
            create.mutate(
              { username: username.trim(), password, is_admin: isAdmin },
              {
                onError: (e) => setErrors(fieldErrors(e, ["username", "password"], WORDING)),
                onSuccess: () => {
                  setErrors({});
                  setUsername("");
                  setPassword("");
                  setIsAdmin(false);
                },
              },
            )
          }
        >
          {create.isPending ? "Creating…" : "Create user"}
        </Button>
      </Filters>
      {create.isError && !allShown(create.error, errors) ? <ErrorState error={create.error} /> : null}
      {toggle.isError ? <ErrorState error={toggle.error} /> : null}
      {users.isPending ? <Loading label="Loading users…" /> : null}
      {users.isError ? <ErrorState error={users.error} onRetry={() => void users.refetch()} /> : null}
      {users.data ? (
        <Table testId="users-table">
          <thead>
            <tr>
              {["User", "Role", "Created", "State", ""].map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {users.data.map((u) => (
              <tr
                key={u.id}
                data-testid="user-row"
                data-user={u.username}
                data-disabled={Boolean(u.disabled_at)}
              >
                <td>{u.username}</td>
                <td>{u.is_admin ? "admin" : "member"}</td>
                <td>{formatRelative(u.created_at)}</td>
                <td>{u.disabled_at ? `disabled ${formatRelative(u.disabled_at)}` : "active"}</td>
                <td>
                  {u.username === me ? (
                    <span className="muted small">you</span>
                  ) : u.disabled_at ? (
                    <Button
                      size="small"
                      variant="secondary"
                      disabled={toggle.isPending}
                      onClick={() => toggle.mutate({ id: u.id, disabled: false })}
                    >
                      Enable
                    </Button>
                  ) : (
                    <ConfirmButton
                      disabled={toggle.isPending}
                      title={`Disable user ${u.username}?`}
                      consequence={`${u.username} is signed out everywhere at once and cannot sign in until an admin enables the account again.`}
                      onConfirm={() => toggle.mutate({ id: u.id, disabled: true })}
                    >
                      Disable
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
    </Section>
  );
}
