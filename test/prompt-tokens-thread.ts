// Run by lib/pool/prompt-tokens.test.ts as another read thread of this process: counts each listing
// it is sent and answers how many tools it had to count. Sent `after: true`, it first waits until
// this thread keeps the counts of every tool of the listing, as another thread said them (its reads
// must not outrun what it was told; the message arrives at no set moment).
import { setImmediate as turn } from "node:timers/promises";
import { parentPort } from "node:worker_threads";
import { countPromptTokens, keptOf } from "@/lib/pool/prompt-tokens";

async function answer({ entries, after }: { entries: unknown[]; after?: boolean }): Promise<void> {
  while (after === true && keptOf(entries) < entries.length) await turn();
  parentPort!.postMessage(countPromptTokens(entries).counted);
}

parentPort!.on("message", (message: { entries: unknown[]; after?: boolean }) => void answer(message));
