import { NotFoundNotice } from "@/components/connections/states";

export default function AppNotFound() {
  return (
    <NotFoundNotice title="App not found" back={{ href: "/", label: "Go to your organisations" }}>
      There is no such app here: it may have been removed, or the organisation does not exist.
    </NotFoundNotice>
  );
}
