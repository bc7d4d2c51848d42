import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { databasePath, isPostgresUrl } from "./db/path";

/**
 * Secrets at rest (stored header values, OAuth tokens and client secrets): AES-256-GCM under a
 * key derived from one master key, which is `THEOREM_SECRET_KEY` (64 hex characters) or else
 * the `secret.key` file beside the database, created (mode 0600) on first use.
 */

const PREFIX = "enc:v1:";
const KEY_FILE = "secret.key";
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

// Kept on globalThis so that dev reloads of this module keep the key of an in-memory database.
const cache = globalThis as typeof globalThis & { __theoremKeys?: Map<string, Buffer> };
const keys = (cache.__theoremKeys ??= new Map());

/** Reads the key file, or creates it whole (written aside, then linked in: a reader never sees half a key). */
function keyFromFile(path: string): Buffer {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dirname(path), { recursive: true });
    const aside = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`;
    writeFileSync(aside, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    try {
      linkSync(aside, path); // fails if another process got there first: its key is the one
    } catch (linkError) {
      if ((linkError as NodeJS.ErrnoException).code !== "EEXIST") throw linkError;
    } finally {
      unlinkSync(aside);
    }
    text = readFileSync(path, "utf8");
  }
  if (!HEX_KEY.test(text.trim())) {
    throw new Error(`The key file ${path} does not hold a key of 64 hex characters: restore it, or remove it to start over (stored secrets are then lost).`);
  }
  return Buffer.from(text.trim(), "hex");
}

function masterKey(): Buffer {
  const fromEnv = process.env["THEOREM_SECRET_KEY"]?.trim() ?? "";
  let source: string;
  if (fromEnv !== "") {
    if (!HEX_KEY.test(fromEnv)) throw new Error("THEOREM_SECRET_KEY must be 64 hex characters (32 bytes), e.g. from `openssl rand -hex 32`.");
    source = `env:${fromEnv.toLowerCase()}`;
  } else if (isPostgresUrl()) {
    // Every instance on the database must decrypt what another stored: one key, given to all.
    throw new Error("With PostgreSQL (DATABASE_URL=postgres://…), set THEOREM_SECRET_KEY (64 hex characters, the same for every instance), e.g. from `openssl rand -hex 32`.");
  } else {
    const db = databasePath();
    source = db === ":memory:" ? "memory" : `file:${join(dirname(db), KEY_FILE)}`;
  }
  let key = keys.get(source);
  if (key === undefined) {
    key = source.startsWith("env:") ? Buffer.from(fromEnv, "hex") : source === "memory" ? randomBytes(32) : keyFromFile(source.slice(5));
    keys.set(source, key);
  }
  return key;
}

/** A 32-byte key for one purpose (HKDF-SHA256 of the master key, the purpose as info): `deriveKey("auth")` ≠ `deriveKey("secrets")`. */
export function deriveKey(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", masterKey(), Buffer.alloc(0), purpose, 32));
}

/** Whether a stored string is one `encryptSecret` made (`enc:v1:…`). */
export function isEncrypted(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** Encrypts a secret for storage: `enc:v1:<iv>:<tag>:<ciphertext>`, each base64url, a fresh IV every time. */
export function encryptSecret(plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", deriveKey("secrets"), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${iv.toString("base64url")}:${cipher.getAuthTag().toString("base64url")}:${body.toString("base64url")}`;
}

/** The secret `encryptSecret` stored; throws when it was changed or encrypted under another key. */
export function decryptSecret(stored: string): string {
  const parts = isEncrypted(stored) ? stored.slice(PREFIX.length).split(":") : [];
  const [iv, tag, body] = parts.map((p) => Buffer.from(p, "base64url"));
  if (parts.length !== 3 || iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || body === undefined) {
    throw new Error("A stored secret is not in the form `enc:v1:<iv>:<tag>:<ciphertext>`.");
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", deriveKey("secrets"), iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("A stored secret could not be decrypted: it was changed, or encrypted under another key.");
  }
}
