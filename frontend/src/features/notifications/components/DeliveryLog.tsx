import { Badge, type Tone } from "@/components/ui/Badge";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { Table, numCell } from "@/components/ui/Table";
import { useDeliveries } from "@/features/notifications/api/getDeliveries";

const TONE: Record<string, Tone> = {
  delivered: "success",
  failed: "fail",
  retrying: "warn",
  sending: "info",
  pending: "muted",
};

const when = (at: string | null | undefined) => (at ? new Date(at).toLocaleString() : "—");

/** One subscription's deliveries, newest first: state, tries, last error, times. */
export function DeliveryLog({ subscriptionId }: { subscriptionId: number }) {
  const log = useDeliveries(subscriptionId);
  if (log.isPending) return <Loading label="Loading the delivery log…" />;
  if (log.isError) return <ErrorState error={log.error} onRetry={() => void log.refetch()} />;
  if (log.data.length === 0) return <Empty plain title="Nothing sent yet" />;
  return (
    <Table testId={`delivery-log-${subscriptionId}`}>
      <thead>
        <tr>
          <th>Event</th>
          <th>Status</th>
          <th className={numCell}>Tries</th>
          <th>Last error</th>
          <th>Queued</th>
          <th>Delivered</th>
        </tr>
      </thead>
      <tbody>
        {log.data.map((d) => (
          <tr key={d.id} data-delivery={d.id}>
            <td title={d.title ?? undefined}>{d.event}</td>
            <td>
              <Badge tone={TONE[d.status] ?? "muted"} shape="tag">
                {d.status}
              </Badge>
            </td>
            <td className={numCell}>{d.attempts}</td>
            <td>{d.last_error ?? "—"}</td>
            <td>{when(d.created_at)}</td>
            <td>{when(d.delivered_at)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
