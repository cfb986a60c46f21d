// Step-by-step guide shown at /m/guide. Plain data: no React, no imports.

export type GuideIllustration = "signup" | "connect" | "evaluate" | "grade" | "share";

export type GuideStep = {
  title: string;
  text: string;
  illustration: GuideIllustration;
};

export const guideSteps: GuideStep[] = [
  {
    title: "Create your account",
    text: "Sign up with your email and a password, or continue with Google or Apple. Every account starts with free tries (three lifetime evaluations by default), so you can get graded before deciding on a pass.",
    illustration: "signup",
  },
  {
    title: "Link a broker or prove a wallet",
    text: "Choose to link a broker and pick yours in the Plaid window; access is read-only, so Grader can never trade or move money. Crypto traders can prove a MetaMask (EVM) or Phantom (Solana) wallet by signing a message, but wallet options are desktop only: on a phone or tablet, open Grader in a desktop browser to use them. Trying the demo? When the app runs without Plaid credentials, log in to the test broker with username user_good and password pass_good.",
    illustration: "connect",
  },
  {
    title: "Run your evaluation",
    text: "Start an evaluation and Grader imports your trades, holdings and cash flows, matches lots first in, first out, and measures returns, drawdown, volatility, Sharpe and Sortino ratios, win rate, profit factor and holding periods. Your data is evaluated on our servers in a moment.",
    illustration: "evaluate",
  },
  {
    title: "See your grade",
    text: "You get a tier from Bronze to Legend and 1 to 5 stars for profitability, risk control, consistency, discipline and experience. If your history is short, the result is marked provisional and its tier is capped until you have more data.",
    illustration: "grade",
  },
  {
    title: "Share your card",
    text: "Download your performance card or share its link. Each card carries a verification code anyone can check. By default it shows percentages only; you can choose to show amounts in your privacy settings.",
    illustration: "share",
  },
];
