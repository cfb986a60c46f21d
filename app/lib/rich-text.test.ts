import { describe, expect, it } from "vitest";
import { mentionedUsernames, tokenize } from "./rich-text";

describe("tokenize", () => {
  it("finds http(s) links and @mentions, leaves the rest as text", () => {
    expect(tokenize("Hi @alice_1, see https://example.com/x?y=1. Bye")).toEqual([
      { kind: "text", text: "Hi " },
      { kind: "mention", text: "@alice_1", username: "alice_1" },
      { kind: "text", text: ", see " },
      { kind: "link", text: "https://example.com/x?y=1", href: "https://example.com/x?y=1" },
      { kind: "text", text: ". Bye" },
    ]);
  });
  it("never links javascript: or data: URLs, nor e-mail addresses as mentions", () => {
    expect(tokenize("javascript:alert(1) data:text/html,x a@bob.com")).toEqual([
      { kind: "text", text: "javascript:alert(1) data:text/html,x a@bob.com" },
    ]);
    expect(tokenize("<img src=x onerror=alert(1)>")).toEqual([{ kind: "text", text: "<img src=x onerror=alert(1)>" }]);
  });
  it("lists mentioned usernames once, lower-cased", () => {
    expect(mentionedUsernames("@Bob and @bob and @al")).toEqual(["bob"]);
  });
});
