import { NotFoundNotice } from "@/components/connections/states";

export default function OrgNotFound() {
  return (
    <NotFoundNotice title="Organisation not found" back={{ href: "/", label: "Go to your organisations" }}>
      There is no organisation at this address, or you are not one of its members. An organisation is named by lower-case letters, digits and -.
    </NotFoundNotice>
  );
}
