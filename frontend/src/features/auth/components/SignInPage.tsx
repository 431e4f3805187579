import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { ApiError } from "@/api/client";
import { useLogin } from "@/features/auth/api/login";

/** Only same-site paths are followed after sign-in, never another origin. */
export function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

export function SignInPage({ next }: { next: string | null }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const login = useLogin();
  const navigate = useNavigate();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate({ username, password }, { onSuccess: () => navigate(safeNext(next), { replace: true }) });
  };
  const error = login.error;
  const message =
    error instanceof ApiError && (error.status === 401 || error.status === 400)
      ? "Wrong user name or password."
      : error instanceof Error
        ? error.message
        : null;
  return (
    <div className="page narrow">
      <form className="card signin" onSubmit={submit} aria-label="Sign in">
        <h1>Sign in</h1>
        <p className="muted small">
          Reading is open to everyone; acknowledging alerts and triggering runs need a user.
        </p>
        <label>
          User name
          <input
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        {message ? (
          <div className="banner banner-error" role="alert">
            {message}
          </div>
        ) : null}
        <button type="submit" className="btn" disabled={login.isPending}>
          {login.isPending ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </div>
  );
}
