import { useState, type FormEvent } from "react";
import type { Schemas } from "@/api/types";
import { Button } from "@/components/ui/Button";
import { Choice } from "@/components/ui/Choice";
import { ErrorState } from "@/components/ui/States";
import { useCreateSubscription } from "@/features/notifications/api/createSubscription";
import styles from "@/features/notifications/components/NotificationsPage.module.css";
import { EVENTS } from "@/features/notifications/events";

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
  const [system, setSystem] = useState(systems[0] ?? "");
  const [channel, setChannel] = useState<Channel>("webhook");
  const [name, setName] = useState("");
  const [target, setTarget] = useState("");
  const [branch, setBranch] = useState("");
  const [events, setEvents] = useState<string[]>(EVENTS.map(([e]) => e));
  const [created, setCreated] = useState<Created | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = {
      system: system || systems[0] || "",
      channel,
      name,
      target,
      branch: branch || null,
      events: events as Schemas["SubscriptionCreate"]["events"],
    };
    create.mutate(body, {
      onSuccess: (sub) => {
        setCreated(sub);
        setName("");
        setTarget("");
      },
    });
  };
  const toggle = (event: string, on: boolean) =>
    setEvents((now) => (on ? [...now, event] : now.filter((x) => x !== event)));

  return (
    <form className={styles.form} onSubmit={submit} aria-label="Add a subscription">
      <label className={styles.field}>
        System
        <select value={system || systems[0] || ""} onChange={(e) => setSystem(e.target.value)}>
          {systems.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
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
      <label className={styles.field}>
        Branch (empty: every branch)
        <input maxLength={200} value={branch} onChange={(e) => setBranch(e.target.value)} />
      </label>
      <fieldset className={styles.events}>
        <legend>Events</legend>
        {EVENTS.map(([event, label]) => (
          <Choice
            key={event}
            type="checkbox"
            checked={events.includes(event)}
            onChange={(e) => toggle(event, e.target.checked)}
          >
            {label}
          </Choice>
        ))}
      </fieldset>
      <div>
        <Button type="submit" disabled={create.isPending || events.length === 0}>
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
