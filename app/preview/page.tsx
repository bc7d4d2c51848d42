import type { Metadata } from "next";
import { PreviewForm } from "@/components/preview-form";
import { firstOrgAllowing } from "@/lib/orgs/members";
import { pageActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Preview a listing" };

/** Whether the viewer may try a live URL's tools (SPEC §14): a leader or developer of some organisation. */
async function mayTry(): Promise<boolean> {
  const actor = await pageActor();
  if (actor === null) return false;
  return (await firstOrgAllowing(actor, "try")) !== null;
}

export default async function PreviewPage() {
  const canTry = await mayTry();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Preview a listing</h1>
        <p className="mt-1 max-w-3xl text-slate-700">
          See how Theorem will name your app&apos;s tools for the model, which ones ask the person first, what the approval card shows, which run together,
          and how close the listing is to the 250,000-character bound, before you ship.
        </p>
      </div>
      <PreviewForm canTry={canTry} />
    </div>
  );
}
