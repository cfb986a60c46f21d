import type { LoaderFunctionArgs } from "@remix-run/node";
import { startAppleLogin } from "~/server/accounts/oauth/apple.server";

// "Continue with Apple": redirects to Apple's authorize page (form_post), or the demo stand-in.
export const loader = ({ request }: LoaderFunctionArgs) => startAppleLogin(request);
