import "server-only";
import { isHttpsUrl } from "@modelcontextprotocol/client";

/** Where the authorization server sends the browser back, on the dashboard. */
export const CALLBACK_PATH = "/api/oauth/callback";
/** The client ID metadata document (SEP-991): its URL is the client's id. */
export const CLIENT_METADATA_PATH = "/api/oauth/client-metadata";

/**
 * The dashboard's origin as people reach it: `THEOREM_URL`'s, else the request's own (loopback:
 * the request guard has already refused any other Host).
 */
export function dashboardOrigin(requestUrl: string): string {
  const configured = process.env.THEOREM_URL?.trim();
  return new URL(configured !== undefined && configured !== "" ? configured : requestUrl).origin;
}

export const callbackUrl = (origin: string) => `${origin}${CALLBACK_PATH}`;

/** The metadata document's URL, when the dashboard is served over https (an http one cannot be a client id). */
export function clientMetadataUrl(origin: string): string | undefined {
  const url = `${origin}${CLIENT_METADATA_PATH}`;
  return isHttpsUrl(url) ? url : undefined;
}
