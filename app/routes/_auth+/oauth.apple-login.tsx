import type { LoaderFunctionArgs } from "@remix-run/node";
import { startAppleLogin } from "~/web/oauth.server";

// "Continue with Apple": redirects to Apple's authorize page (form_post), or the demo stand-in.
export const loader = ({ request }: LoaderFunctionArgs) => startAppleLogin(request);
