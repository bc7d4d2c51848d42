import "server-only";
import { holdLock, transaction, type Conn } from "@/lib/db/client";

/**
 * Changes to one organisation are stored one at a time, by every instance (SPEC §16): each is one
 * transaction holding the organisation's lock, taken for the write only: the live read of an app
 * (seconds) happens before, so a slow app holds up no one else's change.
 */
export async function underOrgLock<T>(db: Conn, org: string, work: (tx: Conn) => Promise<T>): Promise<T> {
  return transaction(db, async (tx) => {
    await holdLock(tx, `theorem.org:${org}`);
    return work(tx);
  });
}
