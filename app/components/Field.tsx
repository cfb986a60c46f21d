import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

type Common = { label: string; name: string; error?: string; hint?: string; id?: string };
type InputProps = Common & { as?: "input" } & Omit<InputHTMLAttributes<HTMLInputElement>, keyof Common>;
type TextareaProps = Common & { as: "textarea" } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, keyof Common>;
type SelectProps = Common & {
  as: "select";
  /** [value, label] pairs, after any <option> given as children (a "Choose…" first, say). */
  options?: readonly (readonly [value: string, label: string])[];
  children?: ReactNode;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, keyof Common | "children">;
type Props = InputProps | TextareaProps | SelectProps;

/**
 * A labelled control whose error sits beside it and is announced (aria-describedby): an input, or
 * with `as="textarea"` / `as="select"` (options as [value, label] pairs) those, wired the same way.
 */
export function Field(props: Props) {
  const { label, name, error, hint, id } = props;
  const inputId = id ?? `f-${name}`;
  const describedBy =
    [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(" ") || undefined;
  const wiring: Wiring = {
    id: inputId,
    name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
  };
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {control(props, wiring)}
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

type Wiring = { id: string; name: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined };

function control(props: Props, wiring: Wiring) {
  if (props.as === "textarea") {
    const { as: _as, label: _l, name: _n, error: _e, hint: _h, id: _i, ...rest } = props;
    return <textarea {...wiring} {...rest} />;
  }
  if (props.as === "select") {
    const { as: _as, label: _l, name: _n, error: _e, hint: _h, id: _i, options, children, ...rest } = props;
    return (
      <select {...wiring} {...rest}>
        {children}
        {options?.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    );
  }
  const { as: _as, label: _l, name: _n, error: _e, hint: _h, id: _i, ...rest } = props;
  return <input {...wiring} {...rest} />;
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
