import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { ApiError } from "@/api/errors";
import { Banner } from "@/components/ui/Banner";
import { Button, ButtonLink } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { Page } from "@/components/ui/Page";
import { useSignInConfig } from "@/features/auth/api/getSignInConfig";
import { useLogin } from "@/features/auth/api/login";
import styles from "@/features/auth/components/SignInPage.module.css";

/** Only same-site paths are followed after sign-in, never another origin. */
export function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

/** Sign-in: with the OIDC provider when one is configured, and with a password unless that is
 * switched off (until the server says, the password form shows). */
export function SignInPage({ next }: { next: string | null }) {
  const config = useSignInConfig().data;
  const local = config?.local ?? true;
  return (
    <Page narrow>
      <Card className={styles.form}>
        <h1>Sign in</h1>
        <p className="muted small">
          Reading is open to everyone; acknowledging alerts and triggering runs need a user.
        </p>
        {config?.oidc ? (
          <ButtonLink
            to={`${config.oidc.login_url}?next=${encodeURIComponent(safeNext(next))}`}
            reloadDocument
            variant={local ? "secondary" : "primary"}
          >
            Sign in with {config.oidc.name}
          </ButtonLink>
        ) : null}
        {config?.oidc && local ? <p className={styles.or}>or with a password</p> : null}
        {local ? <PasswordForm next={next} /> : null}
      </Card>
    </Page>
  );
}

/** The password form; afterwards back to `next` (a same-site path). */
function PasswordForm({ next }: { next: string | null }) {
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
    <form className={styles.form} onSubmit={submit} aria-label="Sign in">
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
      {message ? <Banner tone="error">{message}</Banner> : null}
      <Button type="submit" disabled={login.isPending}>
        {login.isPending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
