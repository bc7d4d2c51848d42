import { withErrors } from "@/lib/api/errors";
import { CALLBACK_PATH, CLIENT_METADATA_PATH, dashboardOrigin } from "@/lib/oauth/dashboard";
import { clientMetadataOf } from "@/lib/oauth/provider";

export const dynamic = "force-dynamic";

/**
 * GET /api/oauth/client-metadata: the dashboard's client ID metadata document (SEP-991). Its URL
 * is the client's id, used with authorization servers that advertise
 * `client_id_metadata_document_supported` when the dashboard is served over https.
 */
export const GET = withErrors(async (request: Request) => {
  const origin = dashboardOrigin(request.url);
  return Response.json(clientMetadataOf(`${origin}${CALLBACK_PATH}`, `${origin}${CLIENT_METADATA_PATH}`), { headers: { "Cache-Control": "public, max-age=3600" } });
});
