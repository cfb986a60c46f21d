import { Form } from "@remix-run/react";
import type { Theme } from "~/lib/theme";

const LABELS: Record<Theme, string> = { system: "System (follows your device)", light: "Light", dark: "Dark" };

/** The theme switch: a plain form post to /theme, so it works without JavaScript. */
export function ThemeForm({ current }: { current: Theme }) {
  return (
    <Form method="post" action="/theme" className="stack card" aria-labelledby="theme-title">
      <h2 id="theme-title" style={{ margin: 0 }}>
        Appearance
      </h2>
      <fieldset className="field">
        <legend>Theme</legend>
        {(Object.keys(LABELS) as Theme[]).map((t) => (
          <label key={t} className="check">
            <input type="radio" name="theme" value={t} defaultChecked={t === current} /> {LABELS[t]}
          </label>
        ))}
      </fieldset>
      <input type="hidden" name="redirect_to" value="/user/settings" />
      <div>
        <button type="submit" className="btn btn-ghost">
          Save theme
        </button>
      </div>
    </Form>
  );
}
