import { Loading } from "@/components/connections/states";

/** What a page of an organisation shows while the server prepares it (each segment's loading.tsx). */
export function PageLoading() {
  return <Loading label="Loading…" />;
}
