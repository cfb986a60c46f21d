import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { APPLE_CALLBACK_PATH } from "~/server/accounts/oauth/apple.server";
import { handleAppleCallback } from "~/web/oauth.server";

// Apple's cross-site form_post (exempt from the Origin check; the signed state is checked instead).
export const action = ({ request }: ActionFunctionArgs) => handleAppleCallback(request, APPLE_CALLBACK_PATH);

// Nothing to show on a GET: back to the sign-in page.
export const loader = () => redirect("/signin");
