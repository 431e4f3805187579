import { useState, type FormEvent } from "react";
import type { Schemas } from "@/api/types";
import { Button } from "@/components/ui/Button";
import { ErrorState } from "@/components/ui/States";
import { useCreateSubscription } from "@/features/notifications/api/createSubscription";
import styles from "@/features/notifications/components/NotificationsPage.module.css";
import {
  BranchAndEvents,
  SystemField,
  useScope,
} from "@/features/notifications/components/SubscriptionScope";

type Channel = Schemas["Channel"];
type Created = Schemas["SubscriptionCreated"];

const TARGET: Record<Channel, { label: string; placeholder: string }> = {
  webhook: { label: "Webhook URL", placeholder: "https://ci.example.com/benchdash-hook" },
  slack: { label: "Slack incoming-webhook URL", placeholder: "https://hooks.slack.com/services/…" },
  email: { label: "E-mail address", placeholder: "perf-team@example.com" },
};

/** The form that adds a subscription; a webhook's signing secret is shown once after. */
export function SubscriptionForm({ systems }: { systems: string[] }) {
  const create = useCreateSubscription();
  const scope = useScope(systems);
  const [channel, setChannel] = useState<Channel>("webhook");
  const [name, setName] = useState("");
  const [target, setTarget] = useState("");
  const [created, setCreated] = useState<Created | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = {
      system: scope.system,
      channel,
      name,
      target,
      branch: scope.branch || null,
      events: scope.events as Schemas["SubscriptionCreate"]["events"],
    };
    create.mutate(body, {
      onSuccess: (sub) => {
        setCreated(sub);
        setName("");
        setTarget("");
      },
    });
  };

  return (
    <form className={styles.form} onSubmit={submit} aria-label="Add a subscription">
      <SystemField scope={scope} systems={systems} />
      <label className={styles.field}>
        Channel
        <select value={channel} onChange={(e) => setChannel(e.target.value as Channel)}>
          <option value="webhook">Webhook (signed JSON)</option>
          <option value="slack">Slack</option>
          <option value="email">E-mail</option>
        </select>
      </label>
      <label className={styles.field}>
        Name
        <input required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className={styles.field}>
        {TARGET[channel].label}
        <input
          required
          value={target}
          placeholder={TARGET[channel].placeholder}
          onChange={(e) => setTarget(e.target.value)}
        />
      </label>
      <BranchAndEvents scope={scope} />
      <div>
        <Button type="submit" disabled={create.isPending || scope.events.length === 0}>
          Add subscription
        </Button>
      </div>
      {create.isError ? <ErrorState error={create.error} /> : null}
      {created?.secret ? (
        <p className={styles.secret} data-testid="signing-secret">
          Signing secret of <strong>{created.name}</strong>, shown this once: <code>{created.secret}</code>
        </p>
      ) : null}
    </form>
  );
}
