import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NO_GRADE, VerifyForm } from "~/components/VerifyForm";
import { seo } from "~/lib/seo";
import { normaliseCode } from "~/server/grades/grade-record.server";

// Every card says "Verify GR-… at <host>/verify": the form sends ?code=, answered with a 303 to the
// record; a code that cannot be one is a 404 on this same page, form included.
export async function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get("code");
  if (raw === null) return json({ notFound: false, entered: "" });
  const code = normaliseCode(raw);
  if (code) throw redirect(`/verify/${code}`, 303);
  return json({ notFound: true, entered: raw.slice(0, 40) }, { status: 404 });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: "Verify a grade · Grader",
    description: "Type the code printed on a Grader card to see the grade it belongs to, signed and logged.",
  });

export default function VerifyIndex() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="page narrow">
      <h1>Verify a grade</h1>
      <p>Every Grader card carries a code like GR-XXXX-XXXX. Type it to see the grade it belongs to.</p>
      {d.notFound ? (
        <p role="alert" className="form-error">
          {NO_GRADE}
        </p>
      ) : null}
      <VerifyForm defaultValue={d.entered} />
    </div>
  );
}
