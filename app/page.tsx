import { redirect } from "next/navigation";

/** The dashboard opens on the demo organisation's Connections tab. */
export default function Home() {
  redirect("/orgs/demo/connections");
}
