/** Next runs this once when a server starts: the demo organisation is prepared before the first request. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { prepareDemo } = await import("./lib/demo/startup");
  await prepareDemo();
}
