import type { MetaArgs, MetaDescriptor } from "@remix-run/node";
import { displayName, type NameFields } from "./display-name";

export const DEFAULT_DESCRIPTION =
  "Link your broker or wallet, get your real trading performance graded from Bronze to Legend, and share a card anyone can verify.";

type SeoOptions = {
  title: string;
  description?: string;
  image?: string;
  type?: "website" | "article";
  noindex?: boolean;
};

/**
 * Title, description, canonical URL and Open Graph / Twitter tags for a page. The canonical and
 * og:url come from the configured PUBLIC_URL (root loader data), never from the request's host.
 */
export function seo({ matches, location }: Pick<MetaArgs, "matches" | "location">, o: SeoOptions): MetaDescriptor[] {
  const root = matches.find((m) => m.id === "root")?.data as { ENV?: { PUBLIC_URL?: string } } | undefined;
  const base = (root?.ENV?.PUBLIC_URL ?? "").replace(/\/$/, "");
  const url = base + location.pathname;
  const description = o.description ?? DEFAULT_DESCRIPTION;
  const image = base + (o.image ?? "/images/og-default.png");
  const tags: MetaDescriptor[] = [
    { title: o.title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: "Grader" },
    { property: "og:type", content: o.type ?? "website" },
    { property: "og:title", content: o.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: o.title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
  if (o.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

/**
 * A tab of another trader's page (/u/:id/…): "Ann Lee · Stats · Grader", named from the layout's
 * loader data, so two traders' tabs, and theirs and the viewer's own, never share a title.
 */
export function traderTabSeo(args: Pick<MetaArgs, "matches" | "location">, tab: string): MetaDescriptor[] {
  const layout = args.matches.find((m) => m.id === "routes/u.$id")?.data as { trader?: NameFields } | undefined;
  const name = (layout?.trader && displayName(layout.trader)) || "Trader";
  return seo(args, { title: `${name} · ${tab} · Grader`, noindex: true });
}
