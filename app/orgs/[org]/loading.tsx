import { Loading } from "@/components/connections/states";

/** While the server computes an organisation page (its apps' names), the page says so at once. */
export default function OrgLoading() {
  return <Loading label="Loading…" />;
}
