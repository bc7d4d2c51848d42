import "server-only";

/**
 * Whether this process is shutting down, and the API requests under way (lib/server/lifecycle.ts
 * waits for them). Apart from the lifecycle so that every route can count itself cheaply.
 */

interface Drain {
  draining: boolean;
  requests: number;
  idle: Set<() => void>;
}

// One per process, across the bundles that load this module.
const shared = globalThis as typeof globalThis & { __theoremDrain?: Drain };
const state = (shared.__theoremDrain ??= { draining: false, requests: 0, idle: new Set() });

/** Whether the process is shutting down (GET /api/health answers 503). */
export const isDraining = (): boolean => state.draining;

/** Starts the drain; answers false when it had already started. */
export function startDraining(): boolean {
  if (state.draining) return false;
  state.draining = true;
  return true;
}

export const requestsUnderWay = (): number => state.requests;

/** Counts an API request under way; answers the function that ends it (calling it twice counts once). */
export function requestStarted(): () => void {
  state.requests++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    state.requests--;
    if (state.requests === 0) for (const resolve of [...state.idle]) resolve();
  };
}

/** Counts `work` as under way until it settles: what a streamed answer goes on with after the route has answered. */
export function holdShutdownFor<T>(work: Promise<T>): Promise<T> {
  const ended = requestStarted();
  return work.finally(ended);
}

/** Resolves once no API request is under way. */
export function requestsDone(): Promise<void> {
  if (state.requests === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      state.idle.delete(done);
      resolve();
    };
    state.idle.add(done);
  });
}
