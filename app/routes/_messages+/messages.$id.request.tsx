import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { MessageList } from "~/components/MessageList";
import { Page } from "~/components/Page";
import { displayName } from "~/lib/display-name";
import { parseBefore } from "~/lib/paging";
import { formError, parseForm } from "~/lib/forms";
import { z } from "zod";
import { answerRequest, conversationFor, conversationMessages } from "~/server/community/messages.server";
import { ensureFound, parseId, readForm } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Message request · Grader", noindex: true });

// A pending request, seen by its recipient only (the sender and everyone else: 404).
async function pendingRequest(request: Request, rawId: string | undefined) {
  const user = await requireUser(request);
  const conversation = ensureFound(await conversationFor(user.id, parseId(rawId)));
  if (conversation.started_by_me || conversation.status !== "request") throw new Response("Not Found", { status: 404 });
  return { user, conversation };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, conversation } = await pendingRequest(request, params.id);
  const before = parseBefore(new URL(request.url).searchParams);
  return json({
    conversation,
    ...(await conversationMessages(user.id, conversation.id, { before })),
    before,
    now: Date.now(),
  });
}

const AnswerForm = z.object({ answer: z.enum(["accept", "decline", "block"]) });

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, conversation } = await pendingRequest(request, params.id);
  const parsed = parseForm(AnswerForm, await readForm(request));
  if (!parsed.ok) return json(formError("Choose accept, decline or block."), { status: 400 });
  const { answer } = parsed.data;
  ensureFound(await answerRequest(user.id, conversation.id, answer));
  return redirect(answer === "accept" ? `/messages/${conversation.id}/reply` : "/messages", 303);
}

export default function MessageRequest() {
  const { conversation, messages, older, before, now } = useLoaderData<typeof loader>();
  const name = displayName(conversation.other) || "Trader";
  return (
    <Page title={`Message request from ${name}`} narrow>
      <p>
        <Link to="/messages">← Messages</Link> · <Link to={`/u/${conversation.other.id}`}>View profile</Link>
      </p>
      <p className="muted">
        You don't follow {name}. Accept to reply; decline to hide it; block to stop all messages from them.
      </p>
      <MessageList messages={messages} name={name} now={now} older={older} paged={before !== null} />
      <Form method="post" className="post-actions">
        <button type="submit" name="answer" value="accept" className="btn btn-primary">
          Accept
        </button>
        <button type="submit" name="answer" value="decline" className="btn btn-ghost">
          Decline
        </button>
        <button type="submit" name="answer" value="block" className="btn btn-ghost">
          Block
        </button>
      </Form>
    </Page>
  );
}
