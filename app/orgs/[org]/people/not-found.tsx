import { NotFoundNotice } from "@/components/connections/states";

export default function PersonNotFound() {
  return (
    <NotFoundNotice title="Person not found" back={{ href: "..", label: "Back to people" }}>
      This organisation has no such member: they may have left it, or the address is of another organisation.
    </NotFoundNotice>
  );
}
