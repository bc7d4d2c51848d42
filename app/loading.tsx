import { Loading } from "@/components/connections/states";

export default function PageLoading() {
  return <Loading label="Loading…" />;
}
