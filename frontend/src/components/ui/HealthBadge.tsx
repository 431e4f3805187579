import { Badge } from "@/components/ui/Badge";
import { HEALTH, type Health } from "@/lib/status";

/** A status of the one status model (src/lib/status.ts) in its word and tone. */
export function HealthBadge({ health, title }: { health: Health; title?: string }) {
  const info = HEALTH[health];
  return (
    <span data-testid="health" data-health={health} data-tone={info.tone} title={title ?? info.description}>
      <Badge tone={info.tone}>{info.label}</Badge>
    </span>
  );
}
