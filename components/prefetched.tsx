import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { Prefetch } from "@/lib/queries/prefetch";

/**
 * Server-side: answers already computed for this request, handed to the page's queries so its
 * first HTML shows them (no "Loading…" shell waiting for the browser to ask). A query whose
 * answer could not be computed is left out: the page then asks for it itself, and shows why.
 * Each query is paired with its loader once, in lib/queries/prefetch.ts (`pageQueries`).
 */
export async function Prefetched({ queries, children }: { queries: Prefetch[]; children: ReactNode }) {
  const client = new QueryClient();
  await Promise.all(
    queries.map(async ({ key, load }) => {
      try {
        client.setQueryData(key, await load());
      } catch {
        // The page's own query will show the error.
      }
    }),
  );
  return <HydrationBoundary state={dehydrate(client)}>{children}</HydrationBoundary>;
}
