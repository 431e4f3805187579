import { Link, NavLink, Outlet, useLocation } from "react-router";
import { useApiDown } from "@/hooks/useApiHealth";
import { useLogout, useMe } from "@/lib/auth";

function UserMenu() {
  const me = useMe();
  const logout = useLogout();
  const location = useLocation();
  if (me.isPending || location.pathname === "/sign-in") return null;
  if (!me.data) {
    const next = encodeURIComponent(location.pathname + location.search);
    return (
      <Link className="nav-signin" to={`/sign-in?next=${next}`}>
        Sign in
      </Link>
    );
  }
  return (
    <span className="nav-user">
      <span title="Signed in">{me.data.username}</span>
      <button type="button" className="btn-link" onClick={() => logout.mutate()}>
        Sign out
      </button>
    </span>
  );
}

export function Layout() {
  const apiDown = useApiDown();
  return (
    <div className="app">
      <header className="topbar">
        <Link to="/" className="brand" aria-label="benchdash home">
          <svg width="20" height="20" viewBox="0 0 16 16" aria-hidden="true">
            <path d="M1 13 5 8l3 3 6-8" stroke="currentColor" strokeWidth="2" fill="none" />
          </svg>
          benchdash
        </Link>
        <nav className="nav">
          <NavLink to="/" end>
            Overview
          </NavLink>
          <NavLink to="/runs">Runs</NavLink>
          <NavLink to="/alerts">Alerts</NavLink>
          <NavLink to="/compare">Compare</NavLink>
        </nav>
        <UserMenu />
      </header>
      {apiDown ? (
        <div className="banner banner-error" role="alert" data-testid="api-down">
          <strong>The benchdash API cannot be reached.</strong> The data shown may be stale; this page retries
          on its own.
        </div>
      ) : null}
      <main className="main">
        <Outlet />
      </main>
    </div>
  );
}
