/**
 * The wire types the UI names, all derived from the generated `schema.ts` (the backend's
 * OpenAPI document): run and alert states, verdict levels, progress and the run's events.
 */
import { alertStatusValues, runStatusValues, type components } from "@/api/schema";

export type Schemas = components["schemas"];

/** Every state of a run, in lifecycle order (the backend's RunStatus enum). */
export const RUN_STATES = runStatusValues;
export type RunStatus = Schemas["RunStatus"];

/** Every state of an alert (the backend's AlertStatus enum). */
export const ALERT_STATUSES = alertStatusValues;
export type AlertStatus = Schemas["AlertStatus"];

export type Level = Schemas["Level"];
export type Stage = Schemas["Stage"];

const FINAL: ReadonlySet<string> = new Set<RunStatus>(["completed", "failed", "cancelled", "timed_out"]);

/** True for a run state the UI should follow live (not finished yet). */
export const isActiveRun = (status: string | null | undefined): boolean =>
  status != null && isRunStatus(status) && !FINAL.has(status);

/** True when `value` names a run state. */
export const isRunStatus = (value: string | null | undefined): value is RunStatus =>
  (RUN_STATES as readonly string[]).includes(value ?? "");

/** How far an agent got: scenario i of n, percent, estimated seconds left. */
export type RunProgress = Schemas["Progress"];

/** The payload of each server-sent event of `GET /api/v1/runs/{run_id}/events`. */
export type RunEvents = Schemas["RunEvents"];
export type RunEventKind = keyof RunEvents;
export const RUN_EVENT_KINDS: readonly RunEventKind[] = ["snapshot", "state", "progress", "log", "end"];
