import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ConnectionsView } from "@/components/connections/connections-view";
import { lookUp } from "./lookup";

type Props = { params: Promise<{ org: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = lookUp((await params).org);
  return { title: found ? `Connections of ${found.org}` : "Connections" };
}

export default async function ConnectionsPage({ params }: Props) {
  const { org } = await params;
  if (lookUp(org) === null) notFound();
  return <ConnectionsView org={org} />;
}
