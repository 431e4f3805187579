import type { Schemas } from "@/api/types";
import { Badge } from "@/components/ui/Badge";
import { Button } from "@/components/ui/Button";
import { ConfirmButton } from "@/components/ui/ConfirmButton";
import { Page, PageHeader, Section } from "@/components/ui/Page";
import { Empty, ErrorState, Loading } from "@/components/ui/States";
import { useSignedInUser } from "@/lib/session";
import { useDeleteSubscription } from "@/features/notifications/api/deleteSubscription";
import { useResumeSubscription } from "@/features/notifications/api/resumeSubscription";
import { useNotifySystems } from "@/features/notifications/api/getNotifySystems";
import { useSubscriptions } from "@/features/notifications/api/getSubscriptions";
import { useSendTest } from "@/features/notifications/api/sendTest";
import { DeliveryLog } from "@/features/notifications/components/DeliveryLog";
import styles from "@/features/notifications/components/NotificationsPage.module.css";
import { MySubscriptionForm } from "@/features/notifications/components/MySubscriptionForm";
import { SubscriptionForm } from "@/features/notifications/components/SubscriptionForm";

type Subscription = Schemas["SubscriptionRead"];

function SubscriptionItem({ sub, mine }: { sub: Subscription; mine: boolean }) {
  const test = useSendTest();
  const remove = useDeleteSubscription();
  const resume = useResumeSubscription();
  return (
    <li className={styles.item} data-testid={`subscription-${sub.id}`}>
      <div className={styles.head}>
        <strong>{sub.name}</strong>
        <Badge tone="info" shape="tag">
          {sub.channel}
        </Badge>
        {sub.paused_reason ? (
          <Badge tone="warn" shape="tag">
            paused
          </Badge>
        ) : null}
        {sub.owner ? (
          <Badge tone="muted" shape="tag">
            {mine ? "yours" : `${sub.owner.replace(/^user:/, "")}'s`}
          </Badge>
        ) : null}
        <span className="muted">
          {sub.system}
          {sub.branch ? ` · ${sub.branch}` : " · every branch"} · {(sub.events ?? []).join(", ")} →{" "}
          {sub.target}
        </span>
        <span className={styles.actions}>
          {sub.paused_reason ? (
            <Button size="small" disabled={resume.isPending} onClick={() => resume.mutate(sub.id)}>
              Resume
            </Button>
          ) : null}
          <Button
            size="small"
            variant="secondary"
            disabled={test.isPending}
            onClick={() => test.mutate(sub.id)}
          >
            Send a test
          </Button>
          <ConfirmButton
            disabled={remove.isPending}
            title="Delete this subscription?"
            consequence="Nothing more is sent to it, and it cannot be restored: to get these notifications again, subscribe anew."
            onConfirm={() => remove.mutate(sub.id)}
          >
            Delete
          </ConfirmButton>
        </span>
      </div>
      {sub.paused_reason ? (
        <p className={styles.paused} data-testid={`paused-${sub.id}`}>
          Nothing is sent to it: {sub.paused_reason}. Fix the receiver (a test is still sent), then resume it.
        </p>
      ) : null}
      {test.isError ? <ErrorState error={test.error} /> : null}
      {resume.isError ? <ErrorState error={resume.error} /> : null}
      {remove.isError ? <ErrorState error={remove.error} /> : null}
      <DeliveryLog subscriptionId={sub.id} />
    </li>
  );
}

/** Notification subscriptions per system: add one, send a test, read each delivery log. */
export function NotificationsPage() {
  const user = useSignedInUser();
  const subs = useSubscriptions(Boolean(user));
  const systems = useNotifySystems();
  const slugs = (systems.data ?? []).map((s) => s.slug);
  return (
    <Page>
      <PageHeader title="Notifications">
        <p className="muted">
          A confirmed regression, its recovery, its first bad commit once a bisection finds it and a failed
          run are sent to each subscription of the system: a webhook (JSON signed with HMAC-SHA256), a Slack
          channel or an e-mail address. Deliveries are retried with growing waits until the receiver takes
          them; each has an id that a receiver uses to drop copies. A subscription whose deliveries keep
          failing is paused until someone resumes it.
        </p>
      </PageHeader>
      {!user ? (
        <Empty title="Sign in to manage notifications" />
      ) : (
        <>
          <Section title="Subscribe me">
            {systems.isError ? <ErrorState error={systems.error} /> : <MySubscriptionForm systems={slugs} />}
          </Section>
          {user.is_admin ? (
            <Section title="Add a subscription">
              {systems.isError ? <ErrorState error={systems.error} /> : <SubscriptionForm systems={slugs} />}
            </Section>
          ) : null}
          <Section title={user.is_admin ? "Subscriptions" : "Your subscriptions"} testId="subscriptions">
            {subs.isPending ? (
              <Loading label="Loading subscriptions…" />
            ) : subs.isError ? (
              <ErrorState error={subs.error} onRetry={() => void subs.refetch()} />
            ) : subs.data.length === 0 ? (
              <Empty title="No subscriptions yet" />
            ) : (
              <ul className={styles.list}>
                {subs.data.map((s) => (
                  <SubscriptionItem key={s.id} sub={s} mine={s.owner === `user:${user.username}`} />
                ))}
              </ul>
            )}
          </Section>
        </>
      )}
    </Page>
  );
}
