/** Next runs this once when a server starts: the demo organisation is prepared, and scheduled re-checks begin. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { prepareDatabase } = await import("./lib/db/client");
  await prepareDatabase();
  const { prepareDemo } = await import("./lib/demo/startup");
  await prepareDemo();
  const [{ startSchedule }, { orgContext }] = await Promise.all([import("./lib/orgs/schedule"), import("./lib/orgs/context")]);
  startSchedule(orgContext());
}
