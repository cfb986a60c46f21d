import type { InputHTMLAttributes } from "react";

type Props = InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; error?: string; hint?: string };

/** A labelled input whose error sits beside it and is announced (aria-describedby). */
export function Field({ label, name, error, hint, id, ...input }: Props) {
  const inputId = id ?? `f-${name}`;
  const describedBy =
    [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint ? (
        <p id={`${inputId}-hint`} className="muted" style={{ margin: 0, fontSize: "0.9rem" }}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${inputId}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The honeypot: hidden from people and assistive technology, tempting to bots. */
export function Honeypot() {
  return (
    <div className="hp" aria-hidden="true">
      <label htmlFor="hp-website">Website</label>
      <input id="hp-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/** What an action answered: an error (alert) and/or a notice (status). */
export function FormResult({ error, notice }: { error?: string | null; notice?: string | null }) {
  return (
    <>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p className="card" role="status">
          {notice}
        </p>
      ) : null}
    </>
  );
}
