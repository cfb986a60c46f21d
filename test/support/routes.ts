// PRODUCT §2's route table, as the browser and HTTP tests visit it. `auth`: the page needs a session
// (without one it redirects to /signin). `heading`: the page's main heading (h1).
export type RouteCase = { path: string; auth: boolean; heading: RegExp | string; status?: number };

export const publicRoutes: RouteCase[] = [
  { path: "/", auth: false, heading: /Grade Your Trade/ },
  { path: "/landing", auth: false, heading: /Grade Your Trade/ },
  { path: "/signin", auth: false, heading: "Log in" },
  { path: "/signin?next=%2Fu%2F1", auth: false, heading: "Log in" },
  { path: "/signup", auth: false, heading: "Join us for free" },
  { path: "/forgot-password", auth: false, heading: "Forgot your password?" },
  { path: "/forgot-request-success", auth: false, heading: "Check your email" },
  { path: "/reset-password?token=nope", auth: false, heading: "This link has expired" },
  { path: "/verify-email?token=nope", auth: false, heading: "This link can't be used", status: 400 },
  { path: "/airdrop", auth: false, heading: "Airdrop" },
  { path: "/pricing", auth: false, heading: "Pricing" },
  { path: "/white-paper", auth: false, heading: "White Paper" },
  { path: "/white-paper/welcome", auth: false, heading: "Welcome to Grader" },
  { path: "/white-paper/disclaimer", auth: false, heading: /Disclaimer/ },
  { path: "/glossary", auth: false, heading: "Glossary" },
  { path: "/blogs", auth: false, heading: "Blog" },
  { path: "/blogs/Aq7TrX8B", auth: false, heading: /./ },
  { path: "/blogs/unknown1", auth: false, heading: "Article not found", status: 404 },
  { path: "/privacy", auth: false, heading: /Privacy/ },
  { path: "/terms", auth: false, heading: /Terms/ },
  { path: "/contact", auth: false, heading: "Contact us" },
  { path: "/stars", auth: false, heading: "Stars" },
  { path: "/star-profile", auth: false, heading: "Star profile" },
  { path: "/m/guide", auth: false, heading: "How to get your grade" },
  { path: "/verify", auth: false, heading: "Verify a grade" },
  { path: "/verify/GR-ZZZZ-ZZZZ", auth: false, heading: "Verify a grade", status: 404 },
  { path: "/clubs/no-such-club", auth: false, heading: "Nothing to see here!", status: 404 },
  { path: "/no/such/page", auth: false, heading: "Nothing to see here!", status: 404 },
];

export const memberRoutes: RouteCase[] = [
  { path: "/user-questions", auth: true, heading: "Tell us about you" },
  { path: "/community", auth: true, heading: "Community" },
  { path: "/market/traders", auth: true, heading: "Market" },
  { path: "/market/trades", auth: true, heading: "Market" },
  { path: "/seasons", auth: true, heading: "Seasons" },
  { path: "/clubs", auth: true, heading: "Clubs" },
  { path: "/clubs/new", auth: true, heading: "Create a club" },
  { path: "/profile", auth: true, heading: /@|example\.com/ },
  ...["posts", "replies", "likes", "following", "followers", "stats", "account", "holdings", "history"].map((t) => ({
    path: `/profile/${t}`,
    auth: true,
    heading: /example\.com|./,
  })),
  { path: "/u/{self}", auth: true, heading: /./ },
  ...["posts", "replies", "stats", "holdings", "transactions", "history"].map((t) => ({
    path: `/u/{self}/${t}`,
    auth: true,
    heading: /./,
  })),
  { path: "/u/999999999", auth: true, heading: "Nothing to see here!", status: 404 },
  { path: "/messages", auth: true, heading: "Messages" },
  { path: "/messages/1/reply", auth: true, heading: "Nothing to see here!", status: 404 },
  { path: "/messages/1/request", auth: true, heading: "Nothing to see here!", status: 404 },
  { path: "/posts/999999999", auth: true, heading: "Nothing to see here!", status: 404 },
  { path: "/posts/999999999/999999998", auth: true, heading: "Nothing to see here!", status: 404 },
  { path: "/evaluate", auth: true, heading: "Get your grade" },
  { path: "/staking", auth: true, heading: "Staking" },
  { path: "/pay-result", auth: true, heading: "Payment result" },
  { path: "/star-apply", auth: true, heading: "Become a Star" },
  { path: "/star-personal", auth: true, heading: "Star dashboard" },
  { path: "/user/settings", auth: true, heading: "Settings" },
  { path: "/user/settings/change-password", auth: true, heading: "Change password" },
  { path: "/user/settings/notifications", auth: true, heading: "Notifications" },
  { path: "/user/settings/live-alerts", auth: true, heading: "Live trade alerts" },
  { path: "/notifications", auth: true, heading: "Notifications" },
  { path: "/portal/settings", auth: true, heading: "Settings" },
  { path: "/portal/dashboard", auth: true, heading: "Dashboard" },
];

export function withSelf(path: string, selfId: number) {
  return path.replace("{self}", String(selfId));
}
