import { hkdfSync } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { decryptSecret, deriveKey, encryptSecret, isEncrypted } from "./secrets";

const dir = mkdtempSync(join(tmpdir(), "theorem-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY_A = "a".repeat(64);
const KEY_B = "0123456789abcdef".repeat(4);
let n = 0;
const saved = { key: process.env["THEOREM_SECRET_KEY"], db: process.env["DATABASE_URL"] };
beforeEach(() => {
  process.env["THEOREM_SECRET_KEY"] = KEY_A;
  process.env["DATABASE_URL"] = join(dir, `data-${++n}`, "theorem.db");
});
afterEach(() => {
  for (const [name, value] of [["THEOREM_SECRET_KEY", saved.key], ["DATABASE_URL", saved.db]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Flips one bit of the base64url part `at` (0: IV, 1: tag, 2: ciphertext) of a stored secret. */
function tamper(stored: string, at: number): string {
  const parts = stored.slice("enc:v1:".length).split(":");
  const bytes = Buffer.from(parts[at]!, "base64url");
  bytes[0] = bytes[0]! ^ 1;
  parts[at] = bytes.toString("base64url");
  return `enc:v1:${parts.join(":")}`;
}

describe("secrets encrypted at rest", () => {
  it.each(["Bearer s3cret-value", "", "ünïcødé 💩", "x".repeat(8192)])("gives back what it encrypted: %j", (plain) => {
    const stored = encryptSecret(plain);
    expect(stored).toMatch(/^enc:v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]*$/);
    expect(isEncrypted(stored)).toBe(true);
    if (plain !== "") expect(stored).not.toContain(plain);
    expect(decryptSecret(stored)).toBe(plain);
  });

  it("uses a fresh IV each time: one secret never stores the same twice", () => {
    expect(encryptSecret("same")).not.toBe(encryptSecret("same"));
  });

  it.each([0, 1, 2])("refuses a stored secret with part %i changed", (at) => {
    const stored = encryptSecret("Bearer s3cret-value");
    expect(() => decryptSecret(tamper(stored, at))).toThrow("could not be decrypted");
  });

  it.each(["Bearer plain", "enc:v1:", "enc:v1:a:b", "enc:v2:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AA"])("refuses %j as not a stored secret", (stored) => {
    expect(() => decryptSecret(stored)).toThrow("not in the form");
  });

  it("does not open what another key encrypted", () => {
    const stored = encryptSecret("Bearer s3cret-value");
    process.env["THEOREM_SECRET_KEY"] = KEY_B;
    expect(() => decryptSecret(stored)).toThrow("could not be decrypted");
    process.env["THEOREM_SECRET_KEY"] = KEY_A.toUpperCase();
    expect(decryptSecret(stored)).toBe("Bearer s3cret-value");
  });

  it.each(["abc", "g".repeat(64), "a".repeat(63), "a".repeat(65)])("refuses THEOREM_SECRET_KEY=%s with a clear sentence", (key) => {
    process.env["THEOREM_SECRET_KEY"] = key;
    expect(() => encryptSecret("x")).toThrow("THEOREM_SECRET_KEY must be 64 hex characters");
    expect(() => deriveKey("auth")).toThrow("THEOREM_SECRET_KEY must be 64 hex characters");
  });

  it("without THEOREM_SECRET_KEY, creates secret.key (mode 0600) beside the database on first use, and keeps using it", () => {
    delete process.env["THEOREM_SECRET_KEY"];
    const file = join(dir, `data-${n}`, "secret.key");
    expect(existsSync(file)).toBe(false);
    const stored = encryptSecret("Bearer s3cret-value");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readFileSync(file, "utf8").trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(decryptSecret(stored)).toBe("Bearer s3cret-value");
    // The same key, given by the environment, opens what the file's key encrypted.
    process.env["THEOREM_SECRET_KEY"] = key;
    expect(decryptSecret(stored)).toBe("Bearer s3cret-value");
  });

  it("reads a key file that is there, and refuses one that is not a key", () => {
    process.env["THEOREM_SECRET_KEY"] = KEY_B;
    const stored = encryptSecret("kept");
    delete process.env["THEOREM_SECRET_KEY"];
    const folder = join(dir, `data-${n}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "secret.key"), `${KEY_B}\n`, { mode: 0o600 });
    expect(decryptSecret(stored)).toBe("kept");

    process.env["DATABASE_URL"] = join(dir, "broken", "theorem.db");
    mkdirSync(join(dir, "broken"), { recursive: true });
    writeFileSync(join(dir, "broken", "secret.key"), "not a key\n");
    expect(() => encryptSecret("x")).toThrow("does not hold a key of 64 hex characters");
  });

  it("keeps an in-memory database's key in the process, writing no file", () => {
    delete process.env["THEOREM_SECRET_KEY"];
    process.env["DATABASE_URL"] = ":memory:";
    const stored = encryptSecret("Bearer s3cret-value");
    expect(decryptSecret(stored)).toBe("Bearer s3cret-value");
    expect(existsSync(join(process.cwd(), "secret.key"))).toBe(false);
  });

  it("derives one 32-byte key per purpose by HKDF-SHA256 of the master key", () => {
    const auth = deriveKey("auth");
    expect(auth).toHaveLength(32);
    expect(deriveKey("auth").equals(auth)).toBe(true);
    expect(deriveKey("secrets").equals(auth)).toBe(false);
    expect(auth.equals(Buffer.from(KEY_A, "hex"))).toBe(false);
    expect(auth.equals(Buffer.from(hkdfSync("sha256", Buffer.from(KEY_A, "hex"), Buffer.alloc(0), "auth", 32)))).toBe(true);
  });
});
