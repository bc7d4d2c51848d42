/** Next runs this once when a server starts: the database is made ready, the demo organisation prepared, and scheduled re-checks begin. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // SPEC §22: host profiles with a missing source or a pattern that does not compile stop the start, saying which.
  const { checkHostProfilesAtStart } = await import("./lib/server/host-profiles");
  checkHostProfilesAtStart();
  const { prepareDatabase } = await import("./lib/db/client");
  await prepareDatabase();
  const { prepareDemo } = await import("./lib/demo/startup");
  await prepareDemo();
  const { startBackground } = await import("./lib/server/lifecycle");
  await startBackground();
}
