/**
 * How old a claim on a mail or a webhook message may grow before another instance takes it again
 * (SPEC §28: none is lost when an instance stops mid-delivery). Apart from the outbox's and the
 * hooks' delivery, which both use it, so that neither imports the other.
 */
export const CLAIM_STALE_MS = 2 * 60_000;
