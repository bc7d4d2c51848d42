import type { AppListing } from "@/lib/engine/check";

/** Secrets shorter than this are not looked for (a two-letter header value would blank every word it appears in). */
const SHORTEST = 4;

/**
 * `text` with every secret in it replaced by `…`: whole, and cut short at the end of a quote
 * (`bad token abc…` where the app's words were cut). For `Bearer <token>` the token alone too.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const words = new Set<string>();
  for (const secret of secrets) {
    for (const value of [secret, secret.replace(/^bearer\s+/i, "")]) if (value.trim().length >= SHORTEST) words.add(value);
  }
  let out = text;
  for (const secret of [...words].sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join("…");
    // A quote cut inside the secret ends in "…": its beginning goes too.
    for (let cut = secret.length - 1; cut >= SHORTEST; cut--) {
      const start = secret.slice(0, cut);
      if (out.includes(`${start}…`)) out = out.split(`${start}…`).join("…");
    }
  }
  return out;
}

/** A read's listing with the app's own secrets (the header values and token it was read with) taken out of its reason. */
export function redactListing(listing: AppListing, secrets: readonly string[]): AppListing {
  if (listing.unavailable == null || secrets.length === 0) return listing;
  const message = redactSecrets(listing.unavailable.message, secrets);
  return message === listing.unavailable.message ? listing : { ...listing, unavailable: { ...listing.unavailable, message } };
}
