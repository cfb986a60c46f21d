import type { LoaderFunctionArgs } from "@remix-run/node";
import { startGoogleLogin } from "~/web/oauth.server";

// "Continue with Google": a plain link (works without JavaScript) that redirects to Google's
// authorize page, or to the demo consent page when Google credentials are not configured.
export const loader = ({ request }: LoaderFunctionArgs) => startGoogleLogin(request);
