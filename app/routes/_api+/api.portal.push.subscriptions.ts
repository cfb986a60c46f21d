import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  deletePushSubscription,
  pushSubscriptionCount,
  savePushSubscription,
  vapidKeys,
} from "~/server/community/push.server";
import { apiData, apiError, readBody, requireApiUser } from "~/server/http/api.server";
import { PushSubscriptionBody, PushUnsubscribeBody } from "~/server/http/api-schemas.server";

// A browser's Web Push subscription (issue 34 point 5). The Push API exists only in JavaScript, so
// this is the one way in; the kinds pushed are chosen in the notification settings' plain form.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const [{ publicKey }, subscriptions] = await Promise.all([vapidKeys(), pushSubscriptionCount(user.id)]);
  return apiData({ public_key: publicKey, subscriptions });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  if (request.method === "POST") {
    await savePushSubscription(user.id, await readBody(request, PushSubscriptionBody));
    return apiData({ subscribed: true }, { status: 201 });
  }
  if (request.method === "DELETE") {
    const done = await deletePushSubscription(user.id, (await readBody(request, PushUnsubscribeBody)).endpoint);
    if (!done.ok) return apiError(done.status, done.message);
    return apiData({ subscribed: false });
  }
  return apiError(405, "Use GET, POST or DELETE for this call.", undefined, { Allow: "GET, POST, DELETE" });
}
