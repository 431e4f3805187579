import { useState } from "react";
import { Choice } from "@/components/ui/Choice";
import styles from "@/features/notifications/components/NotificationsPage.module.css";
import { EVENTS } from "@/features/notifications/events";

/** What a subscription listens to: a system, a branch (empty: every branch) and its events. */
export interface Scope {
  system: string;
  setSystem: (system: string) => void;
  branch: string;
  setBranch: (branch: string) => void;
  events: string[];
  toggle: (event: string, on: boolean) => void;
}

/** The scope's state; every event is chosen at first. */
export function useScope(systems: string[]): Scope {
  const [system, setSystem] = useState(systems[0] ?? "");
  const [branch, setBranch] = useState("");
  const [events, setEvents] = useState<string[]>(EVENTS.map(([e]) => e));
  const toggle = (event: string, on: boolean) =>
    setEvents((now) => (on ? [...now, event] : now.filter((x) => x !== event)));
  return { system: system || systems[0] || "", setSystem, branch, setBranch, events, toggle };
}

/** The system a subscription listens to. */
export function SystemField({ scope, systems }: { scope: Scope; systems: string[] }) {
  return (
    <label className={styles.field}>
      System
      <select value={scope.system} onChange={(e) => scope.setSystem(e.target.value)}>
        {systems.map((s) => (
          <option key={s}>{s}</option>
        ))}
      </select>
    </label>
  );
}

/** The branch (empty: every branch) and the events a subscription listens to. */
export function BranchAndEvents({ scope }: { scope: Scope }) {
  return (
    <>
      <label className={styles.field}>
        Branch (empty: every branch)
        <input maxLength={200} value={scope.branch} onChange={(e) => scope.setBranch(e.target.value)} />
      </label>
      <fieldset className={styles.events}>
        <legend>Events</legend>
        {EVENTS.map(([event, label]) => (
          <Choice
            key={event}
            type="checkbox"
            checked={scope.events.includes(event)}
            onChange={(e) => scope.toggle(event, e.target.checked)}
          >
            {label}
          </Choice>
        ))}
      </fieldset>
    </>
  );
}
