import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json, redirect, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Field } from "~/components/Field";
import {
  BASE_CURRENCIES,
  currencyInSentence,
  currencyLabel,
  DEFAULT_BASE_CURRENCY,
  isBaseCurrency,
} from "~/lib/currencies";
import { parseForm } from "~/lib/forms";
import { SettingsSchema, timeZones } from "~/lib/profile-schemas";
import { Avatar } from "~/components/Avatar";
import { ThemeForm } from "~/components/ThemeForm";
import { useRootData } from "~/lib/use-root-data";
import { AVATAR_MAX_BYTES, removeAvatar, saveAvatar } from "~/server/accounts/avatar.server";
import { getProfile, updateProfile } from "~/server/accounts/profile.server";
import { requireUser } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";
import { z } from "zod";

export const meta: MetaFunction = (args) => seo(args, { title: "Settings · Grader", noindex: true });
export { retryAfterHeaders as headers } from "~/lib/route-headers";

// A save answers with a redirect here (post, redirect, get): the address stays /user/settings, and
// reloading it does not post again. What was done travels as a query parameter.
const DONE = {
  saved: "Your settings are saved.",
  // A new base currency: the grade is re-made by a job (its sentence names the currency, below).
  regrading: "Your settings are saved. Your grade is being re-made.",
  "avatar-updated": "Your avatar is updated.",
  "avatar-removed": "Your avatar is removed.",
} as const;
type Done = keyof typeof DONE;
const doneAt = (done: Done) => `/user/settings?done=${done}`;
// The forms name their address: left to Remix, an index route's form posts to "?index", and a
// refused save without JavaScript showed /user/settings?index in the address bar.
const SETTINGS = "/user/settings";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const done = new URL(request.url).searchParams.get("done");
  return json({
    profile: await getProfile(user.id),
    timeZones: timeZones(),
    done: done !== null && done in DONE ? (done as Done) : null,
  });
}

// One answer shape for the refusals of the three forms; the avatar's is kept apart so it shows in its own card.
type SettingsResult = {
  avatarError: string | null;
  errors: Record<string, string>;
  values: Record<string, string>;
};
const refuse = (result: Partial<SettingsResult>) =>
  json<SettingsResult>({ avatarError: null, errors: {}, values: {}, ...result }, { status: 400 });

// The avatar's remove button says its intent; the settings form has none.
const SettingsForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("remove-avatar") }),
  SettingsSchema.extend({ intent: z.undefined() }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data"))
    return avatarAction(request, user.id);
  const parsed = parseForm(SettingsForm, await readForm(request));
  if (!parsed.ok) return refuse({ errors: parsed.errors, values: parsed.values });
  if (parsed.data.intent === "remove-avatar") {
    await removeAvatar(user.id);
    return redirect(doneAt("avatar-removed"));
  }
  const { intent: _intent, ...profile } = parsed.data;
  const result = await updateProfile(user.id, profile);
  if (result === "username-taken")
    return refuse({ errors: { username: "That username is taken. Try another." }, values: parsed.values });
  if (typeof result === "object")
    return json<SettingsResult>(
      { avatarError: null, errors: { base_currency: result.message }, values: parsed.values },
      { status: 429, headers: { "Retry-After": String(result.retryAfter) } },
    );
  return redirect(doneAt(result === "regrading" ? "regrading" : "saved"));
}

async function avatarAction(request: Request, userId: number) {
  const fail = (avatarError: string) => refuse({ avatarError });
  let file: FormDataEntryValue | null;
  try {
    const form = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: AVATAR_MAX_BYTES }),
    );
    file = form.get("avatar");
  } catch {
    return fail("The image is larger than 2 MB.");
  }
  if (!(file instanceof Blob)) return fail("Choose an image to upload.");
  const result = await saveAvatar(userId, new Uint8Array(await file.arrayBuffer()));
  if (!result.ok) return fail(result.message);
  return redirect(doneAt("avatar-updated"));
}

export default function Settings() {
  const { profile, timeZones, done } = useLoaderData<typeof loader>();
  const location = useLocation();
  const theme = useRootData()?.theme ?? "system";
  const data = useActionData<typeof action>();
  const avatarForm = useRef<HTMLFormElement>(null);
  // With JavaScript the page stays, so the file input would still name the uploaded file: clear it.
  useEffect(() => {
    if (done === "avatar-updated") avatarForm.current?.reset();
  }, [done, location.key]);
  const avatarNotice = done === "avatar-updated" || done === "avatar-removed" ? DONE[done] : null;
  const baseCurrency = isBaseCurrency(profile.base_currency) ? profile.base_currency : DEFAULT_BASE_CURRENCY;
  const savedNotice =
    done === "regrading"
      ? `Your settings are saved. Your grade is being re-made in ${currencyInSentence(baseCurrency)}.`
      : done === "saved"
        ? DONE.saved
        : null;
  const v = (k: string, fallback: string | null) => data?.values[k] ?? fallback ?? "";
  // After a refused save the choices show what was sent (an unticked box sends nothing).
  const typed = data && Object.keys(data.values).length > 0 ? data.values : null;
  const showAmounts = typed ? typed.show_amounts === "amounts" : profile.show_amounts;
  const shareTrades = typed ? typed.share_trades === "on" : profile.share_trades;
  return (
    <div className="page narrow">
      <h1>Settings</h1>
      <p className="lead">Signed in as {profile.email}.</p>
      <Form method="post" action={SETTINGS} className="stack card" noValidate>
        {savedNotice && !data ? (
          <p className="form-success" role="status">
            {savedNotice}
          </p>
        ) : null}
        <Field
          label="Username"
          name="username"
          required
          defaultValue={v("username", profile.username)}
          error={data?.errors.username}
          autoComplete="username"
        />
        <Field
          label="First name"
          name="first_name"
          defaultValue={v("first_name", profile.first_name)}
          error={data?.errors.first_name}
          autoComplete="given-name"
        />
        <Field
          label="Last name"
          name="last_name"
          defaultValue={v("last_name", profile.last_name)}
          error={data?.errors.last_name}
          autoComplete="family-name"
        />
        <fieldset className="field">
          <legend>What others see on your profile and card</legend>
          <label className="check">
            <input type="radio" name="show_amounts" value="percentages" defaultChecked={!showAmounts} /> Percentages and
            grades only
          </label>
          <label className="check">
            <input type="radio" name="show_amounts" value="amounts" defaultChecked={showAmounts} /> Also dollar amounts
          </label>
          <label className="check">
            <input type="checkbox" name="share_trades" value="on" defaultChecked={shareTrades} /> List my trades in the
            market’s recent trades (symbol, side and price; quantities only with dollar amounts)
          </label>
        </fieldset>
        <Field
          as="select"
          label="Time zone"
          name="time_zone"
          defaultValue={v("time_zone", profile.time_zone)}
          options={timeZones.map((z) => [z, z.replaceAll("_", " ")] as const)}
          hint="Your grade's days start at midnight here (from your next grade), and your Stats tab groups trades by weekday and hour of day in this zone."
          error={data?.errors.time_zone}
        />
        <Field
          as="select"
          label="Base currency"
          name="base_currency"
          defaultValue={v("base_currency", baseCurrency)}
          options={[
            ...BASE_CURRENCIES.map((c) => [c, currencyLabel(c)] as const),
            // A refused code comes back as it was sent, beside its error.
            ...(typed?.base_currency && !isBaseCurrency(typed.base_currency)
              ? [[typed.base_currency, `${typed.base_currency} (not offered)`] as const]
              : []),
          ]}
          hint="Your grade is made in this currency: amounts in others are converted at the ECB’s daily reference rates. Changing it re-makes your grade."
          error={data?.errors.base_currency}
        />
        <button type="submit" className="btn btn-primary">
          Save settings
        </button>
      </Form>
      <Form
        method="post"
        action={SETTINGS}
        encType="multipart/form-data"
        className="stack card"
        style={{ marginTop: "1rem" }}
        ref={avatarForm}
      >
        <h2 style={{ margin: 0 }}>Avatar</h2>
        {avatarNotice && !data ? (
          <p className="form-success" role="status">
            {avatarNotice}
          </p>
        ) : null}
        <div style={{ display: "flex", gap: "1rem", alignItems: "center" }}>
          <Avatar user={{ ...profile, avatar: profile.avatar_url }} size={64} />
          <div className="field" style={{ flex: 1, minWidth: 0 }}>
            <label htmlFor="f-avatar">PNG, JPEG or WebP, up to 2 MB</label>
            <input
              id="f-avatar"
              name="avatar"
              type="file"
              accept="image/png,image/jpeg,image/webp"
              aria-invalid={data?.avatarError ? true : undefined}
              aria-describedby={data?.avatarError ? "f-avatar-error" : undefined}
            />
            {data?.avatarError ? (
              <p id="f-avatar-error" className="field-error">
                {data.avatarError}
              </p>
            ) : null}
          </div>
        </div>
        <div style={{ display: "flex", gap: "0.5rem", flexWrap: "wrap" }}>
          <button type="submit" className="btn btn-ghost">
            Upload avatar
          </button>
          {profile.avatar_url ? (
            // In the upload form but sent as a plain form (formEncType), so removing never uploads the chosen file.
            <button
              type="submit"
              name="intent"
              value="remove-avatar"
              formEncType="application/x-www-form-urlencoded"
              className="btn btn-ghost"
            >
              Remove avatar
            </button>
          ) : null}
        </div>
      </Form>
      <ThemeForm current={theme} />
      <p>
        <Link to="/user/settings/change-password">Change password</Link>
      </p>
      <section className="stack card" aria-labelledby="own-data-h" style={{ marginTop: "1rem" }}>
        <h2 id="own-data-h" style={{ margin: 0 }}>
          Your data
        </h2>
        <p style={{ margin: 0 }}>
          <a href="/user/settings/data.json" download>
            Download my data
          </a>{" "}
          (JSON: profile, linked accounts and their ledger, grades, posts, likes, follows and messages)
        </p>
        <p style={{ margin: 0 }}>
          <Link to="/user/settings/delete-account" className="neg">
            Delete my account
          </Link>
        </p>
      </section>
      <p>
        <Link to="/user/settings/notifications">Notifications</Link>
      </p>
      <p>
        <Link to="/user/settings/live-alerts">Live trade alerts</Link>{" "}
        <span className="muted small">(share my trades live)</span>
      </p>
    </div>
  );
}
