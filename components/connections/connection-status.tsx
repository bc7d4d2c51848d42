import { Badge, type BadgeTone } from "@/components/ui/badge";

/** What a row of the Connections list says about an app right now. */
export type ConnectionStatus = "available" | "unavailable" | "unchecked" | "checking" | "read" | "check-failed";

/** Where a row is in a re-check under way: being read, read (naming waits for the rest), or failed. */
export type RowProgress = "checking" | "read" | "failed";

export const CONNECTION_STATUS: Record<ConnectionStatus, { label: string; tone: BadgeTone }> = {
  available: { label: "Available", tone: "green" },
  unavailable: { label: "Unavailable", tone: "red" },
  unchecked: { label: "Not checked yet", tone: "slate" },
  checking: { label: "Checking…", tone: "blue" },
  read: { label: "Read · naming…", tone: "blue" },
  "check-failed": { label: "Check failed", tone: "amber" },
};

/** The status of a stored app, given whether a re-check is under way or just failed. */
export function connectionStatus(app: { lastCheck: { result: { status: "available" | "unavailable" } } | null }, progress: RowProgress | undefined): ConnectionStatus {
  switch (progress) {
    case "checking":
      return "checking";
    case "read":
      return "read";
    case "failed":
      return "check-failed";
    case undefined:
      return app.lastCheck === null ? "unchecked" : app.lastCheck.result.status;
    default: {
      const exhaustive: never = progress;
      return exhaustive;
    }
  }
}

export function ConnectionStatusPill({ status }: { status: ConnectionStatus }) {
  const spec = CONNECTION_STATUS[status];
  return <Badge tone={spec.tone}>{spec.label}</Badge>;
}
