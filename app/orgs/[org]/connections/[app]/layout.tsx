import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { lookUp, safeDecode } from "../lookup";

/** An unknown app answers 404 (connections/not-found.tsx), decided above the page's loading.tsx. */
export default async function AppLayout({ children, params }: { children: ReactNode; params: Promise<{ org: string; app: string }> }) {
  const { org, app } = await params;
  if ((await lookUp(org, safeDecode(app))) === null) notFound();
  return children;
}
