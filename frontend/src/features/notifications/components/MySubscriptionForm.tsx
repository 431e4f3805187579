import { useState, type FormEvent } from "react";
import type { Schemas } from "@/api/types";
import { Button } from "@/components/ui/Button";
import { Choice } from "@/components/ui/Choice";
import { ErrorState } from "@/components/ui/States";
import { useCreateMySubscription } from "@/features/notifications/api/createMySubscription";
import styles from "@/features/notifications/components/NotificationsPage.module.css";
import { EVENTS } from "@/features/notifications/events";

/** A signed-in user subscribes themselves: a system's events by e-mail to their address. */
export function MySubscriptionForm({ systems }: { systems: string[] }) {
  const create = useCreateMySubscription();
  const [system, setSystem] = useState(systems[0] ?? "");
  const [address, setAddress] = useState("");
  const [branch, setBranch] = useState("");
  const [events, setEvents] = useState<string[]>(EVENTS.map(([e]) => e));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      system: system || systems[0] || "",
      address,
      branch: branch || null,
      events: events as Schemas["MySubscriptionCreate"]["events"],
    });
  };
  const toggle = (event: string, on: boolean) =>
    setEvents((now) => (on ? [...now, event] : now.filter((x) => x !== event)));

  return (
    <form className={styles.form} onSubmit={submit} aria-label="Subscribe me">
      <label className={styles.field}>
        System
        <select value={system || systems[0] || ""} onChange={(e) => setSystem(e.target.value)}>
          {systems.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label className={styles.field}>
        Your e-mail address
        <input
          required
          type="email"
          maxLength={320}
          value={address}
          placeholder="you@example.com"
          onChange={(e) => setAddress(e.target.value)}
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
          Subscribe me
        </Button>
      </div>
      {create.isError ? <ErrorState error={create.error} /> : null}
    </form>
  );
}
