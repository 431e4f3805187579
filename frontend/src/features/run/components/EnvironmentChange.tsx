import { Link } from "react-router";
import type { Schemas } from "@/api/types";
import { Banner } from "@/components/ui/Banner";

interface EnvironmentChangeProps {
  change: Schemas["EnvironmentChange"] | null | undefined;
  testbed: string | null | undefined;
  signedIn: boolean;
}

/** Says that this run's environment (compiler, kernel, CPU …) differs from the previous run's on its testbed. */
export function EnvironmentChange({ change, testbed, signedIn }: EnvironmentChangeProps) {
  if (!change) return null;
  return (
    <Banner tone="warn" testId="environment-change">
      <strong>
        The environment changed on testbed {testbed ?? "?"}: {change.text}
      </strong>{" "}
      (since run <Link to={`/runs/${change.previous_run_id}`}>#{change.previous_run_id}</Link>). The history
      continues on this testbed and the charts mark the change; a measurement that moved because of it can be{" "}
      {signedIn ? "accepted as an expected change below" : "accepted as an expected change once signed in"},
      which restarts its baseline here.
    </Banner>
  );
}
