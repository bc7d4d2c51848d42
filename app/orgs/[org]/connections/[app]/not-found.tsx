import { NotFoundNotice } from "@/components/connections/states";

export default function AppNotFound() {
  return (
    <NotFoundNotice title="App not found" back={{ href: "/orgs/demo/connections", label: "Back to the demo organisation's connections" }}>
      There is no such app here: it may have been removed, or the organisation does not exist.
    </NotFoundNotice>
  );
}
