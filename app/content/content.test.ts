import { describe, it, expect } from "vitest";
import { articles, findArticle } from "./blog";
import { sections, findSection } from "./white-paper";
import { privacy, terms } from "./legal";
import { guideSteps } from "./guide";
import { hero, howItWorks, roadmap, features, gradeTiers, supportedPlatforms } from "./landing";

const words = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&[a-z]+;/g, " ")
    .split(/\s+/)
    .filter(Boolean).length;

const allHtml: Array<[string, string]> = [
  ...articles.map((a): [string, string] => [`blog:${a.id}`, a.content]),
  ...sections.map((s): [string, string] => [`white-paper:${s.slug}`, s.html]),
  ["legal:privacy", privacy.html],
  ["legal:terms", terms.html],
];

describe("blog", () => {
  it("has exactly the three spec articles, newest first", () => {
    expect(articles.map((a) => [a.id, a.date, a.readMins])).toEqual([
      ["Aq7TrX8B", "1 July 2025", 3],
      ["tB6YwPoQ", "30 June 2025", 5],
      ["Vm9FaTcN", "25 June 2025", 2],
    ]);
  });

  it("word counts roughly match the read time (±40% of 230 wpm)", () => {
    for (const a of articles) {
      const expected = a.readMins * 230;
      const n = words(a.content);
      expect(n, a.id).toBeGreaterThanOrEqual(expected * 0.6);
      expect(n, a.id).toBeLessThanOrEqual(expected * 1.4);
    }
  });

  it("uses the per-article image path and has titles and keywords", () => {
    for (const a of articles) {
      expect(a.mainImageUrl).toBe(`/images/blog/${a.id}.svg`);
      expect(a.title.length).toBeGreaterThan(0);
      expect(a.subTitle.length).toBeGreaterThan(0);
      expect(a.keywords.length).toBeGreaterThan(0);
    }
  });

  it("findArticle finds by id and returns undefined otherwise", () => {
    expect(findArticle("tB6YwPoQ")?.readMins).toBe(5);
    expect(findArticle("nope")).toBeUndefined();
    expect(findArticle("")).toBeUndefined();
    expect(findArticle("aq7trx8b")).toBeUndefined();
  });
});

describe("white paper", () => {
  it("has the 13 sections in order with non-empty html", () => {
    expect(sections.map((s) => s.slug)).toEqual([
      "welcome",
      "what-is-grader",
      "we-solved-it",
      "tokenomics",
      "nfts-membership",
      "nfts-performance",
      "roadmap",
      "key-features",
      "utility",
      "revenue-streams",
      "deflation",
      "involved",
      "disclaimer",
    ]);
    for (const s of sections) {
      expect(s.title.length, s.slug).toBeGreaterThan(0);
      expect(s.summary.length, s.slug).toBeGreaterThan(0);
      expect(s.html.trim().length, s.slug).toBeGreaterThan(0);
      const n = words(s.html);
      expect(n, s.slug).toBeGreaterThanOrEqual(200);
      expect(n, s.slug).toBeLessThanOrEqual(450);
    }
  });

  it("describes the real grading method and tier thresholds", () => {
    const method = findSection("what-is-grader")!.html;
    for (const term of ["FIFO", "XIRR", "drawdown", "Sortino", "profit factor", "provisional", "verification code"]) {
      expect(method).toContain(term);
    }
    expect(method).toContain("1 + floor(score / 20)");
  });

  it("findSection finds by slug and returns undefined otherwise", () => {
    expect(findSection("roadmap")?.title).toBe("Roadmap");
    expect(findSection("nope")).toBeUndefined();
    expect(findSection("")).toBeUndefined();
  });
});

describe("html safety", () => {
  it.each(allHtml)("%s has no scripts, event handlers, inline styles or external links/images", (_name, html) => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son\w+\s*=/i);
    expect(html).not.toMatch(/style\s*=/i);
    expect(html).not.toMatch(/<(img|iframe|a)\b/i);
    expect(html).not.toMatch(/https?:\/\//i);
  });
});

describe("legal", () => {
  it("has both pages with the support-email placeholder", () => {
    expect(privacy.slug).toBe("privacy");
    expect(terms.slug).toBe("terms");
    for (const p of [privacy, terms]) {
      expect(p.updated).toBe("21 November 2026");
      expect(p.html).toContain("{supportEmail}");
      expect(p.html).toContain("<h2>");
    }
  });
});

describe("guide and landing", () => {
  it("guide has five steps, one per illustration", () => {
    expect(guideSteps.map((s) => s.illustration)).toEqual(["signup", "connect", "evaluate", "grade", "share"]);
    const text = guideSteps.map((s) => s.text).join(" ");
    expect(text).toContain("user_good");
    expect(text).toContain("pass_good");
  });

  it("landing has the spec strings", () => {
    expect(hero).toMatchObject({ title: "Grade Your Trade", subtitle: "Share Your Success", cta: "START NOW" });
    expect(howItWorks.map((s) => s.title)).toEqual([
      "Connect",
      "AI Analyze",
      "Grade, Share & Get Recognized",
      "Earn & Engage with $GRADER",
      "Discover & Learn from Top Traders",
    ]);
    // The brief's four stages, in order, each saying where it stands; none dated in the past
    // while still only planned.
    expect(
      roadmap.filter((r) => r.title !== "Exchanges, every currency, futures and forex").map((r) => r.title),
    ).toEqual([
      "Launch and V1 evaluation",
      "Social features and airdrop events",
      "NFT trading badges and rewards",
      "Partnerships and DEX integration",
    ]);
    for (const r of roadmap) if (r.status !== "live") expect(r.when).not.toMatch(/20\d\d/);
    const order = { live: 0, building: 1, planned: 2 };
    expect(roadmap.map((r) => order[r.status])).toEqual(roadmap.map((r) => order[r.status]).sort());
    expect(features.map((f) => [f.title, f.comingSoon === true])).toEqual([
      ["Multi-Broker Platform Support", false],
      ["AI-Driven Performance Evaluation", false],
      ["Social Integration", true],
      ["Effortless Sharing", false],
    ]);
    expect(gradeTiers.map((t) => [t.name, t.color])).toEqual([
      ["Bronze", "#cd7f32"],
      ["Silver", "#c0c7d1"],
      ["Gold", "#f5c542"],
      ["Master", "#8b5cf6"],
      ["Legend", "#ef4444"],
    ]);
    expect(supportedPlatforms.map((p) => p.name)).toEqual(["Brokers through Plaid", "MetaMask", "Phantom"]);
  });
});
