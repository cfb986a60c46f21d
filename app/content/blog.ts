// Blog articles shown at /blog and /blog/:id. Plain data: no React, no imports.
// Content is simple semantic HTML authored here (trusted), rendered as-is by the blog route.

export type BlogArticle = {
  id: string;
  title: string;
  subTitle: string;
  /** Display date, e.g. "1 July 2025". */
  date: string;
  /** Simple semantic HTML: <p>, <h2>, <ul><li>, <blockquote>, <strong>. */
  content: string;
  mainImageUrl: string;
  readMins: number;
  keywords: string[];
};

const crash = `
<p>Every investor has a plan until the screen turns red. A market crash compresses months of ordinary volatility into a handful of sessions, and it shows you something no backtest can: how you actually behave when losses are real and fast. The lessons below come from a pattern that repeats in almost every sharp sell-off in US stocks, from 1987 to 2008, to March 2020 and the tariff shock of spring 2025.</p>

<h2>1. The drawdown you can tolerate is smaller than you think</h2>
<p>On paper, a 30% decline is just a number; in an account, it is a down payment that vanished in three weeks. Most people overestimate their tolerance because they imagine the loss from the bottom, already known and finite. In reality you live through it as a sequence of days with no visible floor. That uncertainty, more than the size of the loss, is what pushes people to sell at the worst moment.</p>
<p>The practical lesson: size your stock exposure for the drawdown you will actually sit through, not the one you feel you ought to tolerate. If a 25% fall in your portfolio would make you sell everything, your allocation is too aggressive for you, whatever a rule of thumb says.</p>

<h2>2. Recovery math is asymmetric</h2>
<p>A 10% loss needs an 11% gain to recover. A 33% loss needs 50%. A 50% loss needs a 100% gain just to get back to where you started. This asymmetry is why limiting the depth of drawdowns matters as much as chasing return, and why leverage and concentration are so dangerous in a crash.</p>

<h2>3. Selling is really two decisions</h2>
<p>Getting out during a panic feels like one decision, but it is two: when to sell and when to get back in. Many investors who sold in March 2020 waited for a clarity that only arrived after the index had already recovered most of its losses. Some of the strongest single days for US stocks have historically clustered close to the weakest ones, so stepping aside for a few weeks can mean missing the very rebound that does most of the repair work.</p>
<blockquote>If you cannot write down in advance what would make you buy back in, you are not managing risk. You are just leaving.</blockquote>

<h2>4. Cash is most valuable before you need it</h2>
<p>The investors who come through a crash in the best shape rarely predicted it. They simply had cash, short-term bonds or steady income that spared them from forced selling, plus a little dry powder to rebalance. A written rule, such as rebalancing whenever an allocation drifts more than five percentage points from its target, removes the need to be brave in the moment.</p>

<h2>5. Quality shows up when liquidity disappears</h2>
<p>In a broad sell-off, correlations jump and nearly everything falls together at first. The difference appears afterwards. Companies with strong balance sheets, real earnings and modest debt tend to recover, while speculative names that depended on cheap funding or distant promises can stay down for years.</p>

<h2>6. Your records tell the truth your memory will not</h2>
<p>After a crash, memory is generous. We remember the position we held on to, not the three we sold near the low. The only reliable way to learn is to look at your actual trades: what you sold, when, how long you had held it, and what happened next. Useful questions to ask of your own history:</p>
<ul>
<li>What was your maximum drawdown, and how did it compare with the index over the same weeks?</li>
<li>Did you sell your strongest holdings to raise cash, while keeping the weakest?</li>
<li>Did your holding periods shrink sharply during the volatile stretch?</li>
<li>How much of the rebound did you actually capture?</li>
</ul>
<p>This is the kind of evidence that the risk control and discipline dimensions on Grader are built from. A grade is not a prediction, but it is an honest mirror, and a crash is exactly when that mirror is most useful.</p>

<h2>Before the next one</h2>
<p>Crashes are not rare accidents to plan around; they are a normal cost of owning stocks. Write down your maximum acceptable drawdown, keep enough money outside the market that you never have to sell in a panic, decide your rebalancing rule ahead of time, and review your real trades once the dust settles. None of this makes the next sell-off painless, but it makes it survivable.</p>
<p><strong>This article is for education only and is not investment advice.</strong></p>
`;

const rally = `
<p>Rallies feel like validation. After the sharp sell-off of early April 2025, US stocks climbed back to record highs by the end of June, and almost every account that stayed invested looked better week after week. That is precisely what makes a rally dangerous to learn from: rising prices reward good decisions and bad ones alike, and they hide mistakes that only become visible when the trend turns. Here is what a strong market can teach you, if you look past the headline number.</p>

<h2>1. A rising market is not the same as skill</h2>
<p>The first question to ask about a gain is not "how much?" but "compared with what?". If the S&amp;P 500 rose 20% over a period and your portfolio rose 18% while swinging twice as hard on the way, you did worse than a low-cost index fund on a risk-adjusted basis, even though the number in your account went up. A tailwind is not an edge.</p>
<p>Risk-adjusted measures exist to separate the two. The <strong>Sharpe ratio</strong> divides excess return by volatility; the <strong>Sortino ratio</strong> does the same but only penalises downside swings. A portfolio that earned the same return with half the volatility has a much higher ratio, and is usually the result of more deliberate decisions. Compare yourself with a benchmark that matches what you actually hold: a broad index for diversified portfolios, a sector index for a tech-heavy account.</p>

<h2>2. Winners quietly take over your portfolio</h2>
<p>In a strong rally the best performers grow faster than everything else, and a position you bought at 5% of your portfolio can drift to 15% or 20% without a single new purchase. Nothing feels wrong while it keeps rising. But you now own a concentrated bet you never consciously chose, and one bad earnings report can erase months of gains across the whole account.</p>
<p>Decide your concentration limits before prices force the question. A simple rule, such as trimming any single stock back to 10% of the portfolio when it exceeds 15%, locks in part of the gain and keeps the position meaningful without letting it dominate. Trimming a winner is not a forecast that it will fall; it is a decision about how much of your future you want to depend on one company.</p>

<h2>3. Late entries are the most expensive ones</h2>
<p>Every rally produces a chorus of stocks that "everyone" is buying, and the pressure to join grows as the move gets older. Fear of missing out has a measurable cost: positions opened after a stock has already run sharply tend to carry the worst risk and reward balance, because you buy after most of the re-rating has happened and before the inevitable pullback. Look at your own records. If your largest purchases cluster near short-term highs, you are buying momentum with borrowed conviction.</p>
<p>A useful test before any new position during a rally: write one sentence explaining why you would buy it even if it had not gone up in the last month. If you cannot, wait.</p>

<h2>4. Taking profits is a skill, and most people do it backwards</h2>
<p>Behavioural research has documented the <strong>disposition effect</strong> for decades: investors tend to sell winners too early, to feel the satisfaction of a realised gain, and hold losers too long, to avoid admitting a mistake. In a rally this shows up as a portfolio that sold its strongest companies after a 15% gain and kept its weakest ones in the hope of getting back to even.</p>
<p>Better approaches are boring and rule-based:</p>
<ul>
<li>Take partial profits in steps instead of selling all at once, so you are never entirely right or entirely wrong.</li>
<li>Re-underwrite each holding as if you were buying it today at today's price. If you would not buy it now, ask why you still own it.</li>
<li>Remember taxes. In the US, gains on positions held for more than one year are usually taxed at lower long-term rates than short-term gains, so the timing of a sale can matter as much as the price.</li>
</ul>

<h2>5. Leverage feels free until it is not</h2>
<p>Margin loans and short-dated options magnify returns in a rising market, and a few weeks of success can make the risk look theoretical. It is not. Leverage changes the shape of your outcomes: a 10% pullback on a two-times leveraged position is a 20% loss, plus interest, and a margin call can force you to sell at the exact moment you would otherwise hold. Options that expire worthless do not get a second chance when the market recovers. If a rally has made you comfortable with leverage, that comfort is the signal to reduce it.</p>

<h2>6. Check what is actually rising</h2>
<p>Index gains can be driven by a small number of very large companies. When leadership is narrow, the average stock may be doing far worse than the headline index, and a portfolio of smaller names can lag badly while the news says the market is booming. Look at breadth: how many stocks are participating, how equal-weighted indexes compare with cap-weighted ones, and which sectors are leading. Narrow rallies are not necessarily fragile, but they deserve more humility than broad ones.</p>

<h2>7. Measure your return the right way</h2>
<p>Rallies also expose a subtle measurement trap. The <strong>time-weighted return</strong> tells you how well your investments performed, regardless of when you added or withdrew money. The <strong>money-weighted return</strong> (an internal rate of return, often computed as XIRR) tells you how your actual dollars fared, including the timing of your deposits. If you added most of your money near the top, your money-weighted return can be much lower than the time-weighted one, even if your stock picks were fine. Both numbers are honest; they answer different questions. Grader reports both for exactly this reason.</p>

<h2>A short rally checklist</h2>
<ul>
<li>Compare your return with a relevant benchmark, and with the volatility you took to earn it.</li>
<li>Review your three largest positions and decide whether their size is deliberate.</li>
<li>Write down your profit-taking and rebalancing rules before you need them.</li>
<li>Reduce leverage while it is cheap to do so, not after a margin call.</li>
<li>Check your money-weighted return to see whether your deposits were well timed.</li>
<li>Keep notes on why you bought each position, so the next pullback tests your thesis rather than your nerves.</li>
</ul>

<blockquote>A bull market is the best time to build habits that will protect you in a bear market, because it is the only time those habits feel cheap.</blockquote>

<h2>Closing thought</h2>
<p>Strong markets make everyone feel like a good investor. The goal is to come out of a rally with more than a bigger balance: with evidence about what you did well, what you got lucky on, and which habits you need to change before conditions get harder. An honest look at your own trades, measured against a benchmark and adjusted for risk, is the clearest way to get that evidence.</p>
<p><strong>This article is for education only and is not investment advice.</strong></p>
`;

const howMuch = `
<p>"How much should I invest?" is one of the most common questions new investors ask, and there is no single right number. There is, however, a sensible order of decisions that keeps you from investing money you will need next month or, just as costly, leaving idle money that should be working for you.</p>

<h2>Start with the foundations</h2>
<p>Before buying a single stock, make sure two things are in place. First, an <strong>emergency fund</strong>: a common guideline is three to six months of essential expenses in cash or a high-yield savings account. Second, a plan for <strong>high-interest debt</strong>. Paying off a credit card charging 25% is a guaranteed return that no stock portfolio can reliably match.</p>

<h2>Invest only money with a long horizon</h2>
<p>Stocks can fall 20% or more in a year, and it can take years to recover. Money you will need within roughly five years, for a home deposit, tuition or a car, usually belongs in safer assets. Money you will not touch for a decade or more can absorb those swings and benefit from long-term growth.</p>

<h2>Pick a percentage, not a number</h2>
<p>Rather than waiting for a lump sum, decide on a share of your income. Many planners suggest saving 10% to 15% of gross income for retirement, including any employer match. If that feels out of reach, start smaller and raise the rate by one point each year or every time you get a raise. Consistency matters more than the starting figure.</p>

<h2>Size individual positions deliberately</h2>
<p>If you pick individual stocks, decide how much any single idea can cost you. Practical limits used by many disciplined investors:</p>
<ul>
<li>Keep a diversified core, such as a broad index fund, for most of your portfolio.</li>
<li>Use a smaller satellite portion, often 10% to 20%, for individual picks.</li>
<li>Cap any single stock at around 5% to 10% of the total portfolio.</li>
<li>For active trades, limit the amount you can lose on one trade to about 1% to 2% of your account.</li>
</ul>

<h2>Automate it</h2>
<p>Scheduled monthly contributions remove the temptation to time the market and spread your purchases across high and low prices. Automation turns investing from a decision you make repeatedly into a habit you keep.</p>

<blockquote>The right amount to invest is the amount you can keep investing through a bad year without changing your plan.</blockquote>

<p>Review the numbers once a year, or after a major life change such as a new job, a move or a new child. Look at what you actually did with your money: how much you contributed, whether you stuck to your position limits, and how your returns compared with a simple index fund. Let those real results, not your mood or the latest headline, guide any adjustment.</p>
<p><strong>This article is for education only and is not investment advice.</strong></p>
`;

/** Newest first. Ids, dates and read times are fixed by the product spec. */
export const articles: BlogArticle[] = [
  {
    id: "Aq7TrX8B",
    title: "What a Market Crash Teaches You About Your Own Trading",
    subTitle:
      "Drawdowns are where strategy meets temperament. What the worst days reveal, and how to prepare before the next one.",
    date: "1 July 2025",
    content: crash.trim(),
    mainImageUrl: "/images/blog/Aq7TrX8B.svg",
    readMins: 3,
    keywords: ["market crash", "drawdown", "risk management", "rebalancing", "US stocks", "investor behaviour"],
  },
  {
    id: "tB6YwPoQ",
    title: "Riding a Rally Without Getting Thrown: Lessons from a Market Surge",
    subTitle: "Rising prices hide mistakes. How to tell skill from tailwind, and what to fix before the trend turns.",
    date: "30 June 2025",
    content: rally.trim(),
    mainImageUrl: "/images/blog/tB6YwPoQ.svg",
    readMins: 5,
    keywords: ["bull market", "rally", "risk-adjusted return", "Sharpe ratio", "profit taking", "time-weighted return"],
  },
  {
    id: "Vm9FaTcN",
    title: "How Much Should You Invest? A Practical Framework",
    subTitle: "Emergency funds, time horizons and position sizes: a simple order of decisions for new investors.",
    date: "25 June 2025",
    content: howMuch.trim(),
    mainImageUrl: "/images/blog/Vm9FaTcN.svg",
    readMins: 2,
    keywords: ["how much to invest", "emergency fund", "position sizing", "saving rate", "beginner investing"],
  },
];

/** Looks an article up by id (compared as text); undefined when unknown. */
export function findArticle(id: string): BlogArticle | undefined {
  const wanted = String(id);
  return articles.find((a) => a.id === wanted);
}
