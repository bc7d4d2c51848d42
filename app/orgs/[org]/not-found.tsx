import { NotFoundNotice } from "@/components/connections/states";

export default function OrgNotFound() {
  return (
    <NotFoundNotice title="Organisation not found" back={{ href: "/orgs/demo/connections", label: "Go to the demo organisation" }}>
      There is no organisation at this address. An organisation is named by lower-case letters, digits and -.
    </NotFoundNotice>
  );
}
