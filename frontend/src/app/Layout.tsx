import clsx from "clsx";
import { useState } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import styles from "@/app/Layout.module.css";
import { Banner } from "@/components/ui/Banner";
import { useMe } from "@/features/auth/api/getMe";
import { UserMenu } from "@/features/auth/components/UserMenu";
import { useApiDown } from "@/features/health/hooks/useApiDown";
import { SessionContext } from "@/lib/session";

const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? styles.active : undefined);

/** The menu is open for one page: following a link (a new location) closes it. */
function useMenu() {
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const here = location.key;
  const open = openAt === here;
  return { open, toggle: () => setOpenAt(open ? null : here) };
}

/** The app shell: top bar, the API-down banner, and the signed-in user for every page below. */
export function Layout() {
  const apiDown = useApiDown();
  const me = useMe();
  const user = me.data ?? null;
  const menu = useMenu();
  return (
    <SessionContext value={user}>
      <header className={styles.topbar}>
        <Link to="/" className={styles.brand} aria-label="benchdash home">
          <svg width="20" height="20" viewBox="0 0 16 16" aria-hidden="true">
            <path d="M1 13 5 8l3 3 6-8" stroke="currentColor" strokeWidth="2" fill="none" />
          </svg>
          benchdash
        </Link>
        {/* Under 860 px the links and the user fold into this button's panel (CSS decides). */}
        <button
          type="button"
          className={styles.menuButton}
          aria-expanded={menu.open}
          aria-controls="site-menu"
          onClick={menu.toggle}
        >
          Menu
        </button>
        <div id="site-menu" className={clsx(styles.menu, menu.open && styles.open)}>
          <nav className={styles.nav} aria-label="Main">
            <NavLink to="/" end className={navClass}>
              Overview
            </NavLink>
            <NavLink to="/runs" className={navClass}>
              Runs
            </NavLink>
            <NavLink to="/alerts" className={navClass}>
              Alerts
            </NavLink>
            <NavLink to="/compare" className={navClass}>
              Compare
            </NavLink>
            {user ? (
              <NavLink to="/notifications" className={navClass}>
                Notifications
              </NavLink>
            ) : null}
            {user?.is_admin ? (
              <NavLink to="/admin" className={navClass}>
                Admin
              </NavLink>
            ) : null}
          </nav>
          <UserMenu user={user} pending={me.isPending} />
        </div>
      </header>
      {apiDown ? (
        <Banner tone="error" wide testId="api-down">
          <strong>The benchdash API cannot be reached.</strong> The data shown may be stale; this page retries
          on its own.
        </Banner>
      ) : null}
      <main className={styles.main}>
        <Outlet />
      </main>
    </SessionContext>
  );
}
