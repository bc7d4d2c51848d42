import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { UNAVAILABLE_HEADING } from "@/components/unavailable-reason";
import { sourceLink } from "@/components/host-words";
import { hostProfiles } from "@/lib/schemas/hosts";
import { EXPORT_PROFILES } from "@/lib/exports/hosts";
import { EXPORT_HOSTS } from "@/lib/schemas/exports";

export const metadata: Metadata = { title: "How the check works" };

/** SPEC §7's limits, as said to a person. */
const LIMITS = [
  { what: "Connecting", bound: "3 s", measured: "from the start of the connection to the end of the MCP initialize handshake" },
  { what: "Listing", bound: "8 s", measured: "from the first tools/list request to its last page" },
  { what: "Listing size", bound: "250,000 characters", measured: "the characters of every entry the app lists, as JSON, left-out and invalid ones included" },
  { what: "One answer", bound: "16 MiB", measured: "the bytes of one JSON-RPC response" },
  { what: "One streamed event", bound: "4 MiB", measured: "the bytes of one event of a streamed answer" },
] as const;

/** What a host adds around the tools it is sent, which the counts "as sent" leave out (FIELD-NOTES §9). */
const HOST_OVERHEADS = [
  {
    host: "Anthropic's Claude 4 models",
    adds: "a tool-use system prompt of 346 tokens once per request (313 when a tool must be used)",
    source: "https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview",
    sourceName: "tool use overview, Pricing",
  },
  {
    host: "OpenAI's GPT-4o and later",
    adds: "about 7 tokens per function, 3 plus 3 per property, and 12 once, as it rewrites functions into a TypeScript-like namespace",
    source: "https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken",
    sourceName: "OpenAI cookbook, counting tokens",
  },
] as const;

const code = (text: string) => <code className="rounded bg-slate-100 px-1 font-mono text-[0.92em]">{text}</code>;

function Topic({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-4 space-y-2">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="space-y-2 text-slate-800">{children}</div>
    </section>
  );
}

/** The platform's rules for tools in the product's words (SPEC §1–§7), one anchor per badge and reason. */
export default function HelpPage() {
  return (
    <div className="max-w-3xl space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">How the check works</h1>
        <p className="mt-1 text-slate-700">
          What Theorem does with the tools of the apps a person connects: how each tool is named for the model, which ones ask the person first, what
          they are shown, which run together, and the limits an app must stay within. Every badge and reason in the dashboard links to its part here.
        </p>
        <nav aria-label="On this page" className="mt-3 text-sm">
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            {[
              ["short-names", "Short names"],
              ["whole-names", "Whole names"],
              ["left-out", "Left out"],
              ["asks-first", "Asks first / runs freely"],
              ["runs-together", "Runs together"],
              ["approval-card", "Approval card"],
              ["limits", "Limits"],
              ["sizes", "Sizes and tokens"],
              ["unavailable", "Unavailable"],
              ["review", "Review"],
              ["hosts", "Other hosts"],
              ["other-assistants", "Other assistants' files"],
            ].map(([id, label]) => (
              <li key={id}>
                <a href={`#${id}`} className="text-indigo-800 underline hover:text-indigo-950">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <Topic id="short-names" title="Short names">
        <p>
          Each app gets a short name made from its name: letters without accents, lower-case, every run of other characters one {code("_")}, at most 20
          characters. {code("Al-Noor ERP")} is {code("al_noor_erp")}; a name with no letters at all is {code("app")}; one starting with a digit gets{" "}
          {code("app_")} in front.
        </p>
        <p>
          A short name already taken, by one of <Link href="/theorem#connections" className="text-indigo-800 underline">Theorem&apos;s own connections</Link>{" "}
          or by an app connected earlier, becomes {code("…_2")}, {code("…_3")} and so on. Apps keep their short names whether or not they are available, so
          names never move when another app goes down. A person&apos;s apps count in the order they were connected: the organisation&apos;s and their own
          together.
        </p>
      </Topic>

      <Topic id="whole-names" title="Whole names">
        <p>
          The model sees each tool by its whole name: the app&apos;s short name, {code("_")}, then the tool&apos;s own name with every character outside{" "}
          {code("A-Z a-z 0-9 _ -")} made {code("_")}. A tool whose name already starts with the short name keeps it as it is. Whole names are cut at 64
          characters.
        </p>
      </Topic>

      <Topic id="left-out" title="Left out">
        <p>A tool is left out of what the model sees, without a word to the model, when:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>its whole name is one of <Link href="/theorem#tools" className="text-indigo-800 underline">Theorem&apos;s own tools</Link>;</li>
          <li>an earlier tool (of an earlier app, or earlier in the same app) already has that whole name: the first keeps it;</li>
          <li>the entry is not a tool at all (it has no name);</li>
          <li>its organisation waits for review and a leader has not approved it yet;</li>
          <li>a leader blocked it (or, on a personal app, its owner did);</li>
          <li>
            a parameter&apos;s {code("x-mcp-header")} is invalid (empty, not a header name, repeated, or on a parameter that is not a string, integer or
            boolean): a client never offers such a tool, and it takes no whole name.
          </li>
        </ul>
        <p>Tools of an unavailable app are not listed at all, and take no names.</p>
      </Topic>

      <Topic id="asks-first" title="Asks first, or runs freely">
        <p>
          A tool runs freely (the assistant uses it without asking) when it says it only reads ({code("readOnlyHint: true")}), or when it says it neither
          destroys anything nor reaches outside ({code("destructiveHint: false")} and {code("openWorldHint: false")}). Every other tool asks the person
          first. A hint that is missing, or is not {code("true")}/{code("false")}, counts as the cautious value.
        </p>
      </Topic>

      <Topic id="runs-together" title="Runs together, or alone">
        <p>
          Only tools that say they only read may run at the same time as other such tools. Every other tool runs alone, in the order the model asked —
          a tool that runs freely without being read-only included. The batch plan on an app&apos;s page shows how a list of calls would run.
        </p>
      </Topic>

      <Topic id="approval-card" title="Approval card">
        <p>
          A tool that asks first shows the person a card: its title, then one line per argument of the call, at most eight, leaving out ID arguments
          (whose name ends in {code("id")}, {code("ids")}, {code("uuid")} or {code("guid")}, or whose schema says {code('format: "uuid"')}). Long values
          are cut with {code("…")}. The check warns when a tool that asks first would show no line, or when lines would be cut.
        </p>
      </Topic>

      <Topic id="limits" title="Limits">
        <ul className="list-disc space-y-1 pl-5">
          {LIMITS.map((l) => (
            <li key={l.what}>
              <span className="font-medium">{l.what}</span>: {l.bound}, {l.measured}.
            </li>
          ))}
        </ul>
        <p>Past a limit the app is unavailable, and reading stops there: the leader is told why, with the numbers.</p>
      </Topic>

      <Topic id="sizes" title="Sizes: as listed, and as sent">
        <p>
          Two sizes are shown, and each page says which. <span className="font-medium">As listed</span> is the app&apos;s own listing: the characters of
          each entry it lists, as JSON, which the 250,000-character limit counts. <span className="font-medium">As sent</span> is what the assistant is
          given for a tool: its whole name, title, description and input schema as Theorem sends them, which can be shorter (a listed tool&apos;s own
          name and fields Theorem does not send are not in it) or longer (the whole name adds the short name).
        </p>
        <p>
          Tokens are counted in {code("o200k_base")}, exactly, with {code("gpt-tokenizer")}: the text of each tool as sent, and nothing else. A host adds
          its own text around the tools, which these counts leave out: {HOST_OVERHEADS.map((h, i) => (
            <span key={h.host}>
              {i > 0 ? "; " : ""}
              {h.host}, {h.adds} (<a href={h.source} className="text-indigo-800 underline hover:text-indigo-950">{h.sourceName}</a>)
            </span>
          ))}
          .
        </p>
      </Topic>

      <Topic id="unavailable" title="Unavailable">
        <p>An unavailable app&apos;s tools reach no one until it is fixed and read again. The reasons:</p>
        <dl className="space-y-2">
          {Object.entries(UNAVAILABLE_HEADING).map(([code, heading]) => (
            <div key={code} id={`unavailable-${code}`} className="scroll-mt-4">
              <dt className="font-medium">{heading}</dt>
              <dd className="text-slate-700">{UNAVAILABLE_HELP[code as keyof typeof UNAVAILABLE_HELP]}</dd>
            </div>
          ))}
        </dl>
      </Topic>

      <Topic id="leader-settings" title="A leader's say per tool">
        <p>
          On an app&apos;s page a leader sets each tool: <em>Default</em> follows the app&apos;s hints; <em>Ask first</em> always asks the person
          first, whatever the hints say; <em>Blocked</em> never reaches the assistant: the tool is left out and its whole name is free for a later
          app&apos;s tool. No setting makes a tool run freely. Everyone sees the settings; each change is in the audit log. A setting is kept by the
          tool&apos;s name, so one for a tool the app stops listing applies again when it comes back. A person sets the same on their own apps.
        </p>
      </Topic>

      <Topic id="review" title="Review">
        <p>
          An organisation may have new and changed tools wait for a leader&apos;s review before anyone&apos;s assistant gets them. Until approved, such a
          tool is left out and marked as waiting; the app&apos;s page shows what changed.
        </p>
        <p>
          Each new or changed tool is ranked by risk. High: it now runs without asking, claims to only read or to destroy nothing, or its text gains
          something aimed at the assistant (hidden text, instructions, another app&apos;s tool name, a link, a request for keys or the conversation).
          Medium: a new tool, a new required argument, an argument of another type. Low: wording only. With &ldquo;Wait for review only if risky&rdquo;,
          only high-risk changes wait; the rest reach the assistants as they are read.
        </p>
      </Topic>

      <Topic id="risky-text" title="Risky text">
        <p>
          Every tool&apos;s title, description and schema descriptions are read for text aimed at the assistant rather than the person: hidden text,
          instructions (&ldquo;ignore previous instructions&rdquo;), another app&apos;s tool named, a link, a request for keys or the conversation. Each
          finding is the first, red line of the tool&apos;s row. The organisation&apos;s setting decides what it does: <em>Warn</em> (the note only),{" "}
          <em>Ask first</em> (the tool always asks the person first) or <em>Block</em> (the tool is left out and its whole name is free), until a
          leader sets that tool&apos;s own setting, which then wins. A new organisation starts at <em>Ask first</em>, the safe choice.{" "}
          <code>/preview</code> and <code>theorem-check --risky</code> take the same choice; <code>theorem-check</code> fails (exit 1) on these
          notes, naming the tool and why first, unless <code>--fail-on none</code> is given.
        </p>
      </Topic>

      <Topic id="app-only" title="The app's own view">
        <p>
          An app may list tools meant only for its own view (the MCP Apps extension: their <code>_meta.ui.visibility</code> leaves out
          &quot;model&quot;). They are listed and count in the size, but the assistant never sees them: they take no name, no badge and no card, and
          theorem-check does not fail on them.
        </p>
      </Topic>

      <Topic id="hosts" title="Other hosts">
        <p>
          People use more than one assistant, and each takes tools by its own rules. Choose hosts on the preview, an app&apos;s page or a person&apos;s page (or
          give {code("--host ID")} to theorem-check, or {code('"hosts"')} to the check API) to see, beside Theorem&apos;s verdict, what each would refuse, cut
          or rename among the tools Theorem includes: {code("too-many-tools")}, {code("name-too-long")}, {code("name-not-allowed")}, {code("description-cut")}{" "}
          and {code("schema-too-large")}. A name is formed as the host forms it: {code("{app}")} is the app&apos;s short name, {code("{tool}")} the tool&apos;s
          name as listed, {code("{whole}")} Theorem&apos;s whole name. A dash means the host states no such limit. The limits are kept in the
          repository&apos;s {code("config/hosts.json")}, each with the page it comes from and the day it was checked.
        </p>
        <ul className="space-y-3" aria-label="Host profiles">
          {hostProfiles().map((h) => {
            const link = sourceLink(h.source);
            const bound = (n: number | null, unit: string) => (n === null ? "—" : `${n.toLocaleString("en-US")} ${unit}`);
            const limits: [string, ReactNode][] = [
              ["Tools in one request", bound(h.maxTools, "tools")],
              ["Name as formed", code(h.nameForm)],
              ["Name length", bound(h.nameMax, "characters")],
              ["Name pattern", h.namePattern === null ? "—" : code(h.namePattern)],
              ["Description kept", bound(h.descriptionMax, "characters")],
              ["Schema size", bound(h.schemaMaxBytes, "bytes")],
            ];
            return (
              <li key={h.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
                <h3 className="font-medium text-slate-900">
                  {h.name} <span className="font-mono text-xs font-normal text-slate-600">{h.id}</span>
                </h3>
                <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5">
                  {limits.map(([what, value]) => (
                    <div key={what} className="contents">
                      <dt className="text-slate-600">{what}</dt>
                      <dd className="break-all text-slate-900">{value}</dd>
                    </div>
                  ))}
                </dl>
                <p className="mt-1 text-slate-700">
                  Source:{" "}
                  {link.href !== null ? (
                    <>
                      <a href={link.href} rel="noreferrer noopener" className="break-all text-indigo-800 underline hover:text-indigo-950">
                        {link.href}
                      </a>
                      {h.source.slice(link.href.length)}
                    </>
                  ) : (
                    h.source
                  )}
                  ; checked {h.checked}.
                </p>
              </li>
            );
          })}
        </ul>
      </Topic>

      <Topic id="other-assistants" title="Other assistants' files">
        <p>
          &ldquo;Use in other assistants&rdquo; (on an app&apos;s page, a group&apos;s row of Members and a person&apos;s page) writes the same decisions as each
          host&apos;s own configuration: which apps it may use, and per tool whether it is left out, asks first or runs freely, as far as that host can
          say it. What a host cannot say is listed in words with what its file does instead; the organisation&apos;s choice on Connections (&ldquo;What
          another assistant cannot say&rdquo;) decides whether that tool or app is left out or kept. No file holds a secret: each header value is a
          variable to fill in. Each host&apos;s fields were read from these pages on the day given:
        </p>
        <ul className="space-y-2" aria-label="Other assistants' sources">
          {EXPORT_HOSTS.map((id) => {
            const profile = EXPORT_PROFILES[id];
            return (
              <li key={id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
                <h3 className="font-medium text-slate-900">
                  {profile.name} <span className="font-mono text-xs font-normal text-slate-600">{id}</span>
                </h3>
                <ul className="mt-1 list-disc pl-5 text-slate-700">
                  {profile.sources.map((source) => {
                    const link = sourceLink(source);
                    return (
                      <li key={source} className="break-all">
                        {link.href !== null ? (
                          <>
                            <a href={link.href} rel="noreferrer noopener" className="text-indigo-800 underline hover:text-indigo-950">
                              {link.href}
                            </a>
                            {source.slice(link.href.length)}
                          </>
                        ) : (
                          source
                        )}
                      </li>
                    );
                  })}
                </ul>
                <p className="mt-1 text-slate-700">Checked {profile.checked}.</p>
              </li>
            );
          })}
        </ul>
      </Topic>
    </div>
  );
}

const UNAVAILABLE_HELP: Record<keyof typeof UNAVAILABLE_HEADING, string> = {
  "connect-timeout": "It did not finish connecting (the MCP initialize handshake) within 3 s.",
  "list-timeout": "It did not list all its tools (every page of tools/list) within 8 s.",
  "connect-failed": "It could not be reached, or did not answer as an MCP server.",
  "auth-required":
    "It asks for sign-in. When it signs in with OAuth, whoever may connect it (a leader, or the person for their own app) uses Connect on its page; the reason then says what went wrong if the sign-in server could not be found, refused the registration or the sign-in, sent back a different issuer, or the token expired and could not be renewed (Reconnect). Otherwise give it a header, such as Authorization.",
  "address-refused": "Its address is private, loopback or otherwise not one the dashboard may reach.",
  "listing-too-large": "Its tools' listing is over 250,000 characters, or one answer over 16 MiB or one streamed event over 4 MiB.",
  "invalid-listing": "What it listed holds no tool the assistant could use.",
};
