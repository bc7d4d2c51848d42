// Run by lib/pool/prompt-tokens.test.ts as another read thread of this process: counts each listing
// it is sent and answers how many tools it had to count. Sent `after`, it first waits until a thread
// has said the counts of a tool whose description has that text (its reads must not outrun what it was told).
import { setImmediate as turn } from "node:timers/promises";
import { BroadcastChannel, parentPort } from "node:worker_threads";
import { CHANNEL, countPromptTokens } from "@/lib/pool/prompt-tokens";

const heard: string[] = [];
let wake = () => {};
const listening = new BroadcastChannel(CHANNEL);
listening.unref();
listening.onmessage = (event) => {
  const { counted } = (event as unknown as { data: { counted?: [string][] } }).data;
  heard.push(...(counted ?? []).map(([key]) => key));
  wake();
};

async function answer({ entries, after }: { entries: unknown[]; after?: string }): Promise<void> {
  while (after !== undefined && !heard.some((key) => key.includes(after))) await new Promise<void>((resolve) => (wake = resolve));
  await turn();
  parentPort!.postMessage(countPromptTokens(entries).counted);
}

parentPort!.on("message", (message: { entries: unknown[]; after?: string }) => void answer(message));
