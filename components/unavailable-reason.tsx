import { Link } from "@/components/ui/link";
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

/** What the app's developer or the organisation's leader does about it, said first. */
const UNAVAILABLE_TO_DO: Record<UnavailableCode, string> = {
  "connect-timeout": "Make the app finish the MCP initialize handshake within 3 s, then check it again.",
  "list-timeout": "Make every page of its tools/list answer within 8 s (fewer tools per page, or a faster answer), then check it again.",
  "connect-failed": "Check its URL, and that the app is running and speaks MCP over HTTP, then check it again.",
  "auth-required": "Sign it in (Connect, on its page) or give it a header such as Authorization (Edit), then check it again.",
  "address-refused": "Give it a public address (Edit), or ask the dashboard's operator to name it in CHECK_ALLOW_HOSTS. To check a server on your own machine or CI runner, run theorem-check there: it reads local servers.",
  "listing-too-large": "Shorten its tools' descriptions and schemas, or list fewer tools, until the listing is under 250,000 characters; then check it again.",
  "invalid-listing": "List tools as MCP defines them, each with a name and an input schema, then check it again.",
};

/** The plain sentence the organisation's leader is told when an app is unavailable. */
export function UnavailableReason({ unavailable }: { unavailable: Unavailable }) {
  return (
    <div role="alert" className="rounded-lg border border-rose-300 bg-rose-50 p-3 text-rose-950">
      <p className="font-semibold">Unavailable: {UNAVAILABLE_HEADING[unavailable.code]}</p>
      <p className="mt-1 text-sm font-medium">What to do: {UNAVAILABLE_TO_DO[unavailable.code]}</p>
      <p className="mt-1 text-sm">
        <CodeText text={unavailable.message} />{" "}
        <Link href={`/help#unavailable-${unavailable.code}`} className="underline hover:text-rose-800">
          What this means
        </Link>
      </p>
    </div>
  );
}
