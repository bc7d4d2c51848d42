"use client";

import { useParams } from "next/navigation";
import { NotFoundNotice } from "@/components/connections/states";

/** Shown to a member (others get the organisation's 404): the way back is their organisation's list. */
export default function AppNotFound() {
  const { org } = useParams<{ org: string }>();
  return (
    <NotFoundNotice title="App not found" back={{ href: `/orgs/${encodeURIComponent(org)}/connections`, label: "Back to Connections" }}>
      There is no such app here: it may have been removed.
    </NotFoundNotice>
  );
}
