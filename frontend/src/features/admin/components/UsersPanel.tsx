import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { Choice } from "@/components/ui/Choice";
import { Filters } from "@/components/ui/Filters";
import { Section } from "@/components/ui/Page";
import { ErrorState, Loading } from "@/components/ui/States";
import { Table } from "@/components/ui/Table";
import { formatRelative } from "@/lib/format";
import { useCreateUser, useSetUserDisabled, useUsers } from "@/features/admin/api/users";

/** Users: create one, disable (their sessions end) or enable. */
export function UsersPanel({ me }: { me: string }) {
  const users = useUsers();
  const create = useCreateUser();
  const toggle = useSetUserDisabled();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [isAdmin, setIsAdmin] = useState(false);
  return (
    <Section title="Users" testId="admin-users">
      <Filters label="New user">
        <label>
          User name
          <input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
        </label>
        <label>
          Password (12+ characters)
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
          />
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
                onSuccess: () => {
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
      {create.isError ? <ErrorState error={create.error} /> : null}
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
                  ) : (
                    <Button
                      size="small"
                      variant={u.disabled_at ? "secondary" : "danger"}
                      disabled={toggle.isPending}
                      onClick={() => toggle.mutate({ id: u.id, disabled: !u.disabled_at })}
                    >
                      {u.disabled_at ? "Enable" : "Disable"}
                    </Button>
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
