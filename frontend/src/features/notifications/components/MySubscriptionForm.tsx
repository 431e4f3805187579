import { useState, type FormEvent } from "react";
import type { Schemas } from "@/api/types";
import { Button } from "@/components/ui/Button";
import { ErrorState } from "@/components/ui/States";
import { useCreateMySubscription } from "@/features/notifications/api/createMySubscription";
import styles from "@/features/notifications/components/NotificationsPage.module.css";
import {
  BranchAndEvents,
  SystemField,
  useScope,
} from "@/features/notifications/components/SubscriptionScope";

/** A signed-in user subscribes themselves: a system's events by e-mail to their address. */
export function MySubscriptionForm({ systems }: { systems: string[] }) {
  const create = useCreateMySubscription();
  const scope = useScope(systems);
  const [address, setAddress] = useState("");

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      system: scope.system,
      address,
      branch: scope.branch || null,
      events: scope.events as Schemas["MySubscriptionCreate"]["events"],
    });
  };

  return (
    <form className={styles.form} onSubmit={submit} aria-label="Subscribe me">
      <SystemField scope={scope} systems={systems} />
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
      <BranchAndEvents scope={scope} />
      <div>
        <Button type="submit" disabled={create.isPending || scope.events.length === 0}>
          Subscribe me
        </Button>
      </div>
      {create.isError ? <ErrorState error={create.error} /> : null}
    </form>
  );
}
