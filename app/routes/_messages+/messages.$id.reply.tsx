import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { MessageList } from "~/components/MessageList";
import { Page } from "~/components/Page";
import { displayName } from "~/lib/display-name";
import { parseBefore } from "~/lib/paging";
import { useLiveConnected, useLiveRevalidate } from "~/lib/live";
import { usePolling } from "~/lib/use-polling";
import { formError, formText, parseForm } from "~/lib/forms";
import { z } from "zod";
import { conversationFor, conversationMessages, sendMessage } from "~/server/community/messages.server";
import { ensureFound, parseId, readForm } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Conversation · Grader", noindex: true });

// Only the two participants may see or write to a conversation: anyone else gets 404.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const conversation = ensureFound(await conversationFor(user.id, parseId(params.id)));
  // The recipient of a pending request answers it first.
  if (conversation.status === "request" && !conversation.started_by_me)
    throw redirect(`/messages/${conversation.id}/request`);
  if (conversation.status === "declined" && !conversation.started_by_me)
    throw new Response("Not Found", { status: 404 });
  const before = parseBefore(new URL(request.url).searchParams);
  return json({
    conversation,
    ...(await conversationMessages(user.id, conversation.id, { before })),
    before,
    now: Date.now(),
  });
}

const ReplyForm = z.object({ body: formText });

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const conversation = ensureFound(await conversationFor(user.id, parseId(params.id)));
  if (conversation.status === "request" && !conversation.started_by_me)
    throw redirect(`/messages/${conversation.id}/request`);
  if (conversation.status === "declined" && !conversation.started_by_me)
    throw new Response("Not Found", { status: 404 });
  // Always parses: sendMessage judges the body, and a refused one is shown again.
  const parsed = parseForm(ReplyForm, await readForm(request));
  const body = parsed.ok ? parsed.data.body : "";
  const result = await sendMessage(user.id, conversation.other.id, body);
  if (!result.ok) return json(formError(result.message, { body: body.slice(0, 2000) }), { status: result.status });
  return redirect(`/messages/${conversation.id}/reply`, 303);
}

// An open conversation asks for new messages this often (docs/DECISIONS.md 98).
const CONVERSATION_POLL_MS = 4_000;

export default function Conversation() {
  const { conversation, messages, older, before, now, seen_up_to } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const ref = useRef<HTMLFormElement>(null);
  const sending = navigation.state === "submitting";
  const revalidator = useRevalidator();
  const live = useLiveConnected();
  // The newest page reloads when a message or a read receipt of this conversation arrives live
  // (the loader also marks what arrived read); polling only while the stream is not connected. An
  // older page stays still.
  useLiveRevalidate(
    (m) => (m.kind === "message" || m.kind === "read") && m.data.conversation_id === conversation.id,
    before === null,
  );
  usePolling(
    () => {
      if (revalidator.state === "idle" && navigation.state === "idle") revalidator.revalidate();
    },
    CONVERSATION_POLL_MS,
    before === null && !live,
  );
  const was = useRef(false);
  useEffect(() => {
    if (was.current && !sending && !actionData) ref.current?.reset();
    was.current = sending;
  }, [sending, actionData]);
  const name = displayName(conversation.other) || "Trader";
  const closed = conversation.status === "declined" || conversation.blocked_by_me;
  return (
    <Page title={`Conversation with ${name}`} narrow>
      <p>
        <Link to="/messages">← Messages</Link> · <Link to={`/u/${conversation.other.id}`}>View profile</Link>
      </p>
      {conversation.status === "request" ? (
        <p className="muted" role="status">
          Message request sent. {name} will see your messages once they accept.
        </p>
      ) : null}
      {conversation.status === "declined" ? (
        <p className="muted" role="status">
          {name} declined your message request.
        </p>
      ) : null}
      <MessageList
        messages={messages}
        name={name}
        now={now}
        older={older}
        paged={before !== null}
        seenUpTo={seen_up_to}
      />
      {closed ? null : (
        <Form method="post" className="stack" ref={ref}>
          <label htmlFor="reply-body">Reply</label>
          <textarea
            id="reply-body"
            name="body"
            rows={3}
            maxLength={2000}
            required
            defaultValue={actionData?.values.body ?? ""}
          />
          {actionData?.formError ? (
            <p className="field-error" role="alert">
              {actionData.formError}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={sending}>
            Send
          </button>
        </Form>
      )}
    </Page>
  );
}
