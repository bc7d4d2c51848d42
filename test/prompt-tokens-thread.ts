// Run by lib/pool/prompt-tokens.test.ts as another read thread of this process, sharing its table of
// counts (\`workerData\`, as the pools give it): counts each listing it is sent and answers how many
// tools it had to count.
import { parentPort } from "node:worker_threads";
import { countPromptTokens } from "@/lib/pool/prompt-tokens";

parentPort!.on("message", ({ entries }: { entries: unknown[] }) => parentPort!.postMessage(countPromptTokens(entries).counted));
