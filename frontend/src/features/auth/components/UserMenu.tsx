import { Link, useLocation } from "react-router";
import { useLogout } from "@/features/auth/api/logout";
import styles from "@/features/auth/components/UserMenu.module.css";
import type { SignedInUser } from "@/lib/session";

interface UserMenuProps {
  user: SignedInUser | null;
  /** Still asking the API who is signed in: show nothing rather than a flash of "Sign in". */
  pending: boolean;
}

/** The top bar's corner: "Sign in" (back to this page afterwards), or the user and "Sign out". */
export function UserMenu({ user, pending }: UserMenuProps) {
  const logout = useLogout();
  const location = useLocation();
  if (pending || location.pathname === "/sign-in") return null;
  if (!user) {
    const next = encodeURIComponent(location.pathname + location.search);
    return (
      <Link className={styles.signIn} to={`/sign-in?next=${next}`}>
        Sign in
      </Link>
    );
  }
  return (
    <span className={styles.user}>
      <span title="Signed in">{user.username}</span>
      <button type="button" className={styles.signOut} onClick={() => logout.mutate()}>
        Sign out
      </button>
    </span>
  );
}
