// Vitest's global setup: the engine's worker pool loads a bundle, which is built here when stale.
import { buildWorker } from "../../scripts/build-worker.mjs";

export default async function setup() {
  await buildWorker();
}
