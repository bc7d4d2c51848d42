import { withErrors } from "@/lib/api/errors";
import { hostProfiles } from "@/lib/schemas/hosts";

/** GET /api/hosts (SPEC §22): the host profiles a check can answer for, each with its source and limits. Public: they are the repository's own data. */
export const GET = withErrors<[Request]>(async () => Response.json({ hosts: hostProfiles() }, { headers: { "cache-control": "public, max-age=300" } }));
