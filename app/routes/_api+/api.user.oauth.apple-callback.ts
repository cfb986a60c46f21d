import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { APPLE_API_CALLBACK_PATH } from "~/server/accounts/oauth/apple.server";
import { handleAppleCallback } from "~/web/oauth.server";

// The API-path twin of /oauth/apple-callback (PRODUCT §2 lists both as Apple redirect URIs).
export const action = ({ request }: ActionFunctionArgs) => handleAppleCallback(request, APPLE_API_CALLBACK_PATH);

export const loader = () => redirect("/signin");
