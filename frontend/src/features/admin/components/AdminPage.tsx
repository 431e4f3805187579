import { Link } from "react-router";
import { Filters } from "@/components/ui/Filters";
import { Page, PageHeader } from "@/components/ui/Page";
import { Segment, Segmented } from "@/components/ui/Segmented";
import { Empty } from "@/components/ui/States";
import { useSignedInUser } from "@/lib/session";
import { useSystemNames } from "@/features/admin/api/systems";
import { NewSystemPanel, SourcePanel } from "@/features/admin/components/SourcePanel";
import { ManifestPanel, ThresholdsPanel } from "@/features/admin/components/SystemAdminPanels";
import { RetentionPanel } from "@/features/admin/components/RetentionPanel";
import { TokensPanel } from "@/features/admin/components/TokensPanel";
import { UsersPanel } from "@/features/admin/components/UsersPanel";
import { ADMIN_TABS, type AdminSearch } from "@/features/admin/hooks/useAdminSearch";

const LABEL = {
  tokens: "Tokens",
  users: "Users",
  thresholds: "Thresholds",
  manifest: "Manifest",
  retention: "Retention",
  source: "Source",
} as const;

interface AdminPageProps {
  search: AdminSearch;
  onSearch: (patch: Partial<AdminSearch>) => void;
}

/** Admins only: tokens, users, per-metric thresholds, each system's manifest and source, new
 * systems, retention. */
export function AdminPage({ search, onSearch }: AdminPageProps) {
  const user = useSignedInUser();
  const systems = useSystemNames();
  if (!user?.is_admin) {
    return (
      <Page narrow>
        <Empty title="Admins only">
          {user ? (
            "Your account is not an admin: ask one to change tokens, users or thresholds."
          ) : (
            <>
              <Link to="/sign-in?next=%2Fadmin">Sign in</Link> as an admin to manage tokens, users and
              thresholds.
            </>
          )}
        </Empty>
      </Page>
    );
  }
  const perSystem = search.tab === "thresholds" || search.tab === "manifest" || search.tab === "source";
  const slug = search.system ?? systems.data?.[0]?.slug ?? null;
  return (
    <Page>
      <PageHeader title="Admin" />
      <Segmented role="tablist">
        {ADMIN_TABS.map((t) => (
          <Segment key={t} tab selected={search.tab === t} onSelect={() => onSearch({ tab: t })}>
            {LABEL[t]}
          </Segment>
        ))}
      </Segmented>
      {perSystem ? (
        <Filters label="System">
          <label>
            System
            <select value={slug ?? ""} onChange={(e) => onSearch({ system: e.target.value || null })}>
              {(systems.data ?? []).map((s) => (
                <option key={s.slug} value={s.slug}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        </Filters>
      ) : null}
      {search.tab === "tokens" ? <TokensPanel /> : null}
      {search.tab === "users" ? <UsersPanel me={user.username} /> : null}
      {search.tab === "retention" ? <RetentionPanel /> : null}
      {perSystem && !slug ? <Empty title="No systems yet" /> : null}
      {search.tab === "thresholds" && slug ? <ThresholdsPanel key={slug} slug={slug} /> : null}
      {search.tab === "manifest" && slug ? <ManifestPanel key={slug} slug={slug} /> : null}
      {search.tab === "source" && slug ? <SourcePanel key={slug} slug={slug} /> : null}
      {search.tab === "source" ? (
        <NewSystemPanel onCreated={(created) => onSearch({ system: created })} />
      ) : null}
    </Page>
  );
}
