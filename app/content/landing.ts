// Landing page copy. Plain data: no React; tier bounds and colours come from the vocabulary.
import { TIER_COLORS, TIERS, tierBounds, type Tier } from "~/lib/vocabulary";
// Several strings are fixed by the product spec (hero, button, step titles, roadmap, features).

export type Hero = { title: string; subtitle: string; cta: string; blurb: string };

export type HowItWorksStep = { title: string; description: string };

export type PlatformKind = "broker" | "wallet";

export type SupportedPlatform = {
  name: string;
  kind: PlatformKind;
  description: string;
  /** Examples shown under the platform (e.g. brokers reachable through Plaid). */
  examples: string[];
  /** Wallet sign-in needs a browser extension: available on desktop only. */
  desktopOnly: boolean;
};

/** Where a stage stands today: shipped, being built, or only planned. */
export type RoadmapStatus = "live" | "building" | "planned";

export const ROADMAP_STATUS_LABELS: Readonly<Record<RoadmapStatus, string>> = {
  live: "Live",
  building: "In progress",
  planned: "Planned",
};

export type RoadmapItem = { when: string; status: RoadmapStatus; title: string; description: string };

export type Feature = { title: string; description: string; comingSoon?: boolean };

export type GradeTier = {
  name: Tier;
  color: string;
  /** Overall score range [min, max) on 0–100; Legend's max is 100 inclusive. */
  minScore: number;
  maxScore: number;
  meaning: string;
};

export type TokenPerk = { title: string; description: string };

export type TokenTeaser = {
  name: "$GRADER";
  status: "planned";
  headline: string;
  description: string;
  perks: TokenPerk[];
  note: string;
};

export const hero: Hero = {
  title: "Grade Your Trade",
  subtitle: "Share Your Success",
  cta: "START NOW",
  blurb:
    "Link your brokerage or prove your wallet, get your real performance graded from Bronze to Legend, and share a card anyone can verify.",
};

export const howItWorks: HowItWorksStep[] = [
  {
    title: "Connect",
    description:
      "Link your brokerage securely through Plaid with read-only access, or prove a MetaMask or Phantom wallet by signing a message. We never trade or move funds.",
  },
  {
    title: "AI Analyze",
    description:
      "Our engine matches every lot, separates deposits from gains and measures returns, drawdown, volatility, Sharpe, Sortino, win rate and holding periods.",
  },
  {
    title: "Grade, Share & Get Recognized",
    description:
      "Receive a grade from Bronze to Legend with star ratings on five dimensions, then share a performance card with a verification code anyone can check.",
  },
  {
    title: "Earn & Engage with $GRADER",
    description:
      "Complete tasks and stake points to climb the leaderboard. Points are off-chain today; an on-chain token is planned.",
  },
  {
    title: "Discover & Learn from Top Traders",
    description:
      "Search traders, follow verified Stars graded Gold or better, and join the discussion with posts, replies and direct messages.",
  },
];

export const brokerExamples: string[] = [
  "Robinhood",
  "Fidelity",
  "Charles Schwab",
  "E*TRADE",
  "Interactive Brokers",
  "Webull",
];

export const supportedPlatforms: SupportedPlatform[] = [
  {
    name: "Brokers through Plaid",
    kind: "broker",
    description: "Connect major US brokerages with read-only access through Plaid.",
    examples: brokerExamples,
    desktopOnly: false,
  },
  {
    name: "MetaMask",
    kind: "wallet",
    description: "EVM wallets: prove ownership by signing a message. No transaction permissions, ever.",
    examples: ["Ethereum", "EVM-compatible chains"],
    desktopOnly: true,
  },
  {
    name: "Phantom",
    kind: "wallet",
    description: "Solana wallets: prove ownership by signing a message. No transaction permissions, ever.",
    examples: ["Solana"],
    desktopOnly: true,
  },
];

// The brief's four stages, each saying where it stands today; what is being built now sits between
// what shipped and what is only planned. Kept true as stages ship (white paper "Roadmap" too).
export const roadmap: RoadmapItem[] = [
  {
    when: "Q1 2025",
    status: "live",
    title: "Launch and V1 evaluation",
    description: "Brokerage and wallet linking, the performance engine, grade badges and verifiable performance cards.",
  },
  {
    when: "Q2 2025",
    status: "live",
    title: "Social features and airdrop events",
    description:
      "Posts, follows and direct messages, trader search, the leaderboard and Stars, plus the off-chain $GRADER points and airdrop tasks.",
  },
  {
    when: "Now",
    status: "building",
    title: "Exchanges, every currency, futures and forex",
    description:
      "Crypto exchange accounts through read-only keys, grades in any account currency, and Interactive Brokers statements with futures and forex.",
  },
  {
    when: "Later",
    status: "planned",
    title: "NFT trading badges and rewards",
    description:
      "Non-transferable NFT badges tied to verified evaluations, and rewards for consistent, disciplined traders. Not dated yet.",
  },
  {
    when: "Later",
    status: "planned",
    title: "Partnerships and DEX integration",
    description:
      "Partnerships with brokers and trading communities, and integration with decentralised exchanges. Not dated yet.",
  },
];

export const features: Feature[] = [
  {
    title: "Multi-Broker Platform Support",
    description:
      "Link accounts from major US brokers through Plaid and add MetaMask or Phantom wallets, all evaluated together on one profile.",
  },
  {
    title: "AI-Driven Performance Evaluation",
    description:
      "A consistent, versioned engine scores profitability, risk control, consistency, discipline and experience, and flags small samples as provisional.",
  },
  {
    title: "Social Integration",
    description:
      "Connect your grade with the communities where you already talk about trading, and bring verified results wherever you post.",
    comingSoon: true,
  },
  {
    title: "Effortless Sharing",
    description:
      "Download a polished performance card in one click. It shows percentages only by default and carries a verification code.",
  },
];

const TIER_MEANINGS: Record<Tier, string> = {
  Bronze: "Getting started: results are still uneven, with room to improve risk or discipline.",
  Silver: "Solid foundations: a sound process with some dimensions still developing.",
  Gold: "Consistently strong: good returns for the risk taken, eligible to apply for Stars.",
  Master: "Exceptional: disciplined, risk-aware performance sustained over time.",
  Legend: "Elite: top-tier results across every dimension, backed by a long verified record.",
};

export const gradeTiers: GradeTier[] = TIERS.map((name) => {
  const { min, max } = tierBounds(name);
  return { name, color: TIER_COLORS[name], minScore: min, maxScore: max, meaning: TIER_MEANINGS[name] };
});

export const token: TokenTeaser = {
  name: "$GRADER",
  status: "planned",
  headline: "Earn & Engage with $GRADER",
  description:
    "Today $GRADER is an off-chain points program: complete airdrop tasks and stake points for 30, 90 or 180 days to boost your leaderboard multiplier. An on-chain token is planned.",
  perks: [
    { title: "Staking", description: "Lock tokens for longer commitments and larger leaderboard multipliers." },
    {
      title: "Leaderboard rewards",
      description:
        "Monthly seasons: the ten most consistent verified traders of each month win points when it closes (see Seasons).",
    },
    {
      title: "Trader clubs",
      description:
        "Live: member groups organised around strategies and markets, each with its own feed and leaderboard; Gold-or-better traders and Stars start them (see Clubs).",
    },
    {
      title: "Live trade alerts",
      description:
        "Live today: follow a trader who shares trades live and get an alert when they trade (symbol, side, verified tier, share of the portfolio), after the delay they choose.",
    },
  ],
  note: "The on-chain token and token staking are planned, not live; seasons, clubs and live alerts work today. Points have no monetary value, no token is offered today, and nothing on Grader is investment advice.",
};

export const disclaimer =
  "Grader evaluates historical performance only. Nothing here is investment advice, and past performance does not predict future results.";
