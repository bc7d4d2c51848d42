#!/usr/bin/env node
// The client command the conformance suite runs as `<command> <server-url>` for each scenario
// (MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_CONTEXT in its environment): it asks the test
// that started the suite (THEOREM_CONFORMANCE_PERSON, on loopback) to do, through the dashboard's
// routes, what a person would with that server, and exits when that is done. Plain Node: no build.
const [serverUrl] = process.argv.slice(2);
const person = process.env.THEOREM_CONFORMANCE_PERSON;
if (serverUrl === undefined || person === undefined) {
  console.error("Usage: THEOREM_CONFORMANCE_PERSON=<url> driver.mjs <server-url> (run by the conformance suite)");
  process.exit(2);
}
const response = await fetch(person, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ scenario: process.env.MCP_CONFORMANCE_SCENARIO ?? "", serverUrl, context: process.env.MCP_CONFORMANCE_CONTEXT ?? null }),
});
const answer = await response.json().catch(() => ({ ok: false, steps: [`the test answered HTTP ${response.status}`] }));
for (const step of answer.steps ?? []) console.error(step);
process.exit(answer.ok ? 0 : 1);
