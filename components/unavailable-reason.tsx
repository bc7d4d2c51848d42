import Link from "next/link";
import type { Unavailable, UnavailableCode } from "@/lib/schemas/check";
import { CodeText } from "@/components/code-text";

export const UNAVAILABLE_HEADING: Record<UnavailableCode, string> = {
  "connect-timeout": "Too slow to connect",
  "list-timeout": "Too slow to list its tools",
  "connect-failed": "Could not connect",
  "auth-required": "Needs sign-in",
  "address-refused": "Address not allowed",
  "listing-too-large": "Listing too large",
  "invalid-listing": "No usable listing",
};

/** The plain sentence the organisation's leader is told when an app is unavailable. */
export function UnavailableReason({ unavailable }: { unavailable: Unavailable }) {
  return (
    <div role="alert" className="rounded-lg border border-rose-300 bg-rose-50 p-3 text-rose-950">
      <p className="font-semibold">Unavailable: {UNAVAILABLE_HEADING[unavailable.code]}</p>
      <p className="mt-1 text-sm">
        <CodeText text={unavailable.message} />{" "}
        <Link href={`/help#unavailable-${unavailable.code}`} className="underline hover:text-rose-800">
          What this means
        </Link>
      </p>
    </div>
  );
}
