import { Form } from "@remix-run/react";

export const NO_GRADE = "No grade has this code";

/** The code form of /verify: a plain GET form, so it works without JavaScript. */
export function VerifyForm({ defaultValue = "" }: { defaultValue?: string }) {
  return (
    <Form method="get" action="/verify" className="stack" aria-label="Verify a grade">
      <label htmlFor="verify-code">Verification code</label>
      <input
        id="verify-code"
        name="code"
        defaultValue={defaultValue}
        placeholder="GR-XXXX-XXXX"
        autoComplete="off"
        spellCheck={false}
        required
        maxLength={40}
      />
      <button type="submit" className="btn btn-primary">
        Verify
      </button>
    </Form>
  );
}
