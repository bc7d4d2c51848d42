import { toNextJsHandler } from "better-auth/next-js";
import { withErrors } from "@/lib/api/errors";
import { getAuth } from "@/lib/auth/auth";

export const dynamic = "force-dynamic";

/** better-auth's own endpoints: sign up, sign in, sign out, sessions, organisations, keys. Logged as every API request is. */
export const GET = withErrors((request: Request) => toNextJsHandler(getAuth()).GET(request));
export const POST = withErrors((request: Request) => toNextJsHandler(getAuth()).POST(request));
