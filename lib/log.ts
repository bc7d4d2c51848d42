import "server-only";
import pino, { type DestinationStream, type LevelWithSilent, type Logger } from "pino";

/**
 * The dashboard's log (SPEC §16): JSON lines on stdout, never a secret. Fields named like a secret
 * are replaced by `[redacted]` wherever they sit, up to three levels deep; a secret must never go
 * into a message's text, which nothing can redact.
 */

export const REDACTED = "[redacted]";

// Header names as they are sent and as a Headers object lowers them.
const SECRET_FIELDS = [
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  "set-cookie",
  "Set-Cookie",
  "x-api-key",
  "X-Api-Key",
  "apiKey",
  "key",
  "token",
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "idToken",
  "id_token",
  "password",
  "secret",
  "clientSecret",
  "client_secret",
  "code",
  "codeVerifier",
  "code_verifier",
  "state",
];

function redactPaths(): string[] {
  const paths = ["headers.*", "*.headers.*", "header.value", "*.header.value"];
  for (const field of SECRET_FIELDS) {
    const plain = /^[A-Za-z_$][\w$]*$/.test(field);
    paths.push(plain ? field : `["${field}"]`);
    const member = plain ? `.${field}` : `["${field}"]`;
    paths.push(`*${member}`, `*.*${member}`);
  }
  return paths;
}

const LEVELS: readonly LevelWithSilent[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const isLevel = (text: string): text is LevelWithSilent => (LEVELS as readonly string[]).includes(text);

/** `LOG_LEVEL`, else info; a test run is silent unless it asks (its output would drown the reporter's). */
function levelOf(env: NodeJS.ProcessEnv): { level: LevelWithSilent; unknown?: string } {
  const asked = env.LOG_LEVEL?.trim().toLowerCase();
  const fallback = env.VITEST ? "silent" : "info";
  if (asked === undefined || asked === "") return { level: fallback };
  return isLevel(asked) ? { level: asked } : { level: "info", unknown: asked };
}

interface Root {
  logger: Logger;
  /** Where the lines go: stdout, or a test's stream (`sendLogsTo`). */
  sink: { destination: DestinationStream };
}

/**
 * Stdout as the log's destination. Once the pipe is closed (EPIPE) lines are dropped, never
 * thrown: pino's destination stops writing by itself, and the same holds for what else writes to
 * stdout (Next's own console lines), so a closed pipe cannot crash the server or stall its drain.
 */
function stdoutDestination(): DestinationStream {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  return pino.destination(1);
}

function createRoot(): Root {
  const sink = { destination: stdoutDestination() };
  const { level, unknown } = levelOf(process.env);
  const logger = pino(
    {
      level,
      redact: { paths: redactPaths(), censor: REDACTED },
      // `err: error` is written as its name, message and stack (pino's own serializer copies every property).
      serializers: { err: errorField },
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (line: string) => sink.destination.write(line) },
  );
  if (unknown !== undefined) logger.warn({ asked: unknown }, "LOG_LEVEL is not a level (fatal, error, warn, info, debug, trace, silent): logging at info.");
  return { logger, sink };
}

// One log per process, however many bundles load this module (and across dev reloads).
const shared = globalThis as typeof globalThis & { __theoremLog?: Root };
const root = (shared.__theoremLog ??= createRoot());

export const logger: Logger = root.logger;

/** A logger whose every line carries `bindings` (a request's id, an app, an organisation). */
export function logWith(bindings: Record<string, unknown>): Logger {
  return logger.child(bindings);
}

/** What a line's `err` field holds. */
interface ErrorField {
  type: string;
  message: string;
  stack?: string;
}

const isErrorField = (value: unknown): value is ErrorField =>
  typeof value === "object" && value !== null && Object.keys(value).every((k) => k === "type" || k === "message" || k === "stack") && typeof (value as ErrorField).message === "string";

/**
 * An error as a line's `err` field: its name, message and stack only, since its other properties
 * may hold what it was sent (a request's headers, a token). The logger applies it to `err`, so
 * `{ err: error }` is enough; applying it twice changes nothing.
 */
export function errorField(error: unknown): ErrorField {
  if (error instanceof Error) return { type: error.name, message: error.message, ...(error.stack !== undefined ? { stack: error.stack } : {}) };
  if (isErrorField(error)) return error;
  return { type: typeof error, message: String(error) };
}

/**
 * For tests: sends the lines to `destination` at `level` until the returned function is called.
 * Loggers made with `logWith` keep the level they were made with.
 */
export function sendLogsTo(destination: DestinationStream, level: LevelWithSilent = "info"): () => void {
  const before = { destination: root.sink.destination, level: root.logger.level };
  root.sink.destination = destination;
  root.logger.level = level;
  return () => {
    root.sink.destination = before.destination;
    root.logger.level = before.level;
  };
}
