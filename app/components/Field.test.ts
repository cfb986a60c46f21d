import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field } from "./Field";

const html = (props: Parameters<typeof Field>[0]) => renderToStaticMarkup(createElement(Field, props));

describe("Field", () => {
  it("an input: labelled, its error announced beside it", () => {
    const out = html({ label: "Email", name: "email", type: "email", error: "Enter a valid email." });
    expect(out).toContain('<label for="f-email">Email</label>');
    expect(out).toContain(
      '<input id="f-email" name="email" aria-invalid="true" aria-describedby="f-email-error" type="email"/>',
    );
    expect(out).toContain('<p id="f-email-error" class="field-error">Enter a valid email.</p>');
  });
  it("a textarea: the same wiring, what was typed kept", () => {
    const out = html({
      as: "textarea",
      label: "Message",
      name: "message",
      rows: 6,
      defaultValue: "hi",
      error: "Too short.",
    });
    expect(out).toContain('<label for="f-message">Message</label>');
    expect(out).toContain(
      '<textarea id="f-message" name="message" aria-invalid="true" aria-describedby="f-message-error" rows="6">hi</textarea>',
    );
    expect(out).toContain('<p id="f-message-error" class="field-error">Too short.</p>');
  });
  it("a select: children first, then the [value, label] options; error and hint described", () => {
    const out = html({
      as: "select",
      label: "Experience",
      name: "experience",
      id: "exp",
      defaultValue: "b",
      hint: "Pick one.",
      error: "Choose one.",
      options: [
        ["a", "A"],
        ["b", "B"],
      ],
      children: createElement("option", { value: "" }, "Choose…"),
    });
    expect(out).toContain('<label for="exp">Experience</label>');
    expect(out).toContain(
      '<select id="exp" name="experience" aria-invalid="true" aria-describedby="exp-error exp-hint">',
    );
    expect(out).toContain(
      '<option value="">Choose…</option><option value="a">A</option><option value="b" selected="">B</option></select>',
    );
    expect(out).toContain('<p id="exp-hint"');
  });
  it("no error: neither aria-invalid nor a description", () => {
    expect(html({ as: "textarea", label: "Bio", name: "bio" })).toContain(
      '<textarea id="f-bio" name="bio"></textarea>',
    );
  });
});
