// The app `npm run bench:cli` reads live: the listing file given, served as a demo app is
// (test/apps/demo-apps.ts, the MCP SDK's server, Streamable HTTP, stateless) on 127.0.0.1. Prints its URL.
import { readFileSync } from "node:fs";
import { serveMcpApp } from "@/test/apps/demo-apps";

const { tools } = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as { tools: object[] };
const app = await serveMcpApp({ name: "Bench", tools });
process.stdout.write(`${app.url}\n`);
