import { ApiError, withErrors } from "@/lib/api/errors";

export const dynamic = "force-dynamic";

/** Any /api/… path no route serves: the API's JSON 404, never Next's HTML page. */
const notFound = withErrors(async (request: Request) => {
  throw new ApiError("not-found", `There is no API route at ${new URL(request.url).pathname.slice(0, 200)}.`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as HEAD, notFound as OPTIONS };
