import "server-only";
import { HostProfilesError, hostProfiles } from "@/lib/schemas/hosts";

interface StartIo {
  /** Reads and validates the profiles (`config/hosts.json`). */
  load?: () => unknown;
  exit?: (code: number) => never;
  write?: (line: string) => void;
}

/**
 * Reads the host profiles once as the server starts (SPEC §22): with a profile that cannot be
 * used the dashboard does not start, and says which profile and what is wrong with it.
 */
export function checkHostProfilesAtStart({ load = hostProfiles, exit = process.exit, write = console.error }: StartIo = {}): void {
  try {
    load();
  } catch (error) {
    if (!(error instanceof HostProfilesError)) throw error;
    write(`The dashboard cannot start: ${error.message}`);
    exit(1);
  }
}
