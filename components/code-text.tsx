import { Link } from "@/components/ui/link";
import { Fragment } from "react";

/**
 * A sentence of the check or the lookup as a person reads it: `code` between backticks shown
 * as code (never the backticks themselves), and every mention of Theorem's own connections or
 * tools linked to the page that lists them. Text only: nothing in it is ever read as HTML.
 */
const PARTS = /(`[^`\n]+`)|(Theorem's own (?:connections?|tools?))/g;

export function CodeText({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(PARTS)) {
    const at = match.index;
    if (at > last) parts.push(text.slice(last, at));
    if (match[1] !== undefined) {
      parts.push(
        <code key={at} className="rounded bg-slate-100 px-1 font-mono text-[0.92em] break-all text-slate-900">
          {match[1].slice(1, -1)}
        </code>,
      );
    } else {
      const anchor = match[2]!.includes("connection") ? "connections" : "tools";
      parts.push(
        <Link key={at} href={`/theorem#${anchor}`} className="text-indigo-800 underline hover:text-indigo-950">
          {match[2]}
        </Link>,
      );
    }
    last = at + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts.map((p, i) => (typeof p === "string" ? <Fragment key={`t${i}`}>{p}</Fragment> : p))}</>;
}
