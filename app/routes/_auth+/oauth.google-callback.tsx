import type { LoaderFunctionArgs } from "@remix-run/node";
import { handleGoogleCallback } from "~/web/oauth.server";

// Google returns here with ?code&state; success goes on with our session, failure to /signin?error=….
export const loader = ({ request }: LoaderFunctionArgs) => handleGoogleCallback(request);
