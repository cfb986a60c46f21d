// White paper shown at /white-paper (one page per section). Plain data: no React, no imports.
// Everything about the $GRADER token, NFTs, burns and DEX integration is PLANNED; today the
// points program is off-chain and has no monetary value. Keep that distinction in every edit.

export type WhitePaperSection = {
  slug: string;
  title: string;
  summary: string;
  /** Simple semantic HTML: <p>, <h2>/<h3>, <ul>/<ol><li>, <blockquote>, <strong>. */
  html: string;
};

export const sections: WhitePaperSection[] = [
  {
    slug: "welcome",
    title: "Welcome to Grader",
    summary: "Verified trading performance, graded the same way for everyone.",
    html: `
<p>Anyone can post a screenshot of a winning trade. Very few people can show what their whole account actually did over months or years, measured the same way as everyone else's, and backed by data that came directly from their broker or their wallet. Grader exists to close that gap.</p>
<p>Grader is a web product for people who trade US stocks and crypto. You link a brokerage account through Plaid, or prove ownership of a crypto wallet by signing a message with MetaMask (EVM chains) or Phantom (Solana). Grader imports your real trades, holdings and cash flows, evaluates them with a deterministic performance engine, and gives you a grade badge (Bronze, Silver, Gold, Master or Legend) with star ratings on five dimensions: profitability, risk control, consistency, discipline and experience. You can share the result as a performance card that carries a verification code, so anyone can check that the grade is real.</p>
<p>Around that core sits a community: posts, replies, likes, follows and direct messages; trader search; a leaderboard market view; Stars, a featured group of traders graded Gold or better who apply to be showcased; and the $GRADER points program, which rewards participation.</p>
<h2>What this document covers</h2>
<p>This white paper explains the problem Grader addresses, how the evaluation method works, which features are live today, and what we plan to build next, including an on-chain $GRADER token, NFT memberships and performance badges. We are careful to separate the two:</p>
<ul>
<li><strong>Live today:</strong> account linking, evaluations, grades and star ratings, performance cards with verification codes, free tries and paid passes, the community, trader search, the leaderboard, Stars and the off-chain points program.</li>
<li><strong>Planned:</strong> the $GRADER token, on-chain staking rewards, NFT membership and performance badges, token burns and DEX integration. None of these exist yet, and their design may change.</li>
</ul>
<p>Nothing in this document, or anywhere in Grader, is investment advice, and no token is offered for sale. Please read the disclaimer at the end.</p>
`,
  },
  {
    slug: "what-is-grader",
    title: "What Is Grader?",
    summary: "A performance engine that turns real account data into a transparent, reproducible grade.",
    html: `
<p>Grader is an independent evaluator of trading performance. It reads data, it never places trades, and it applies one published method to every account.</p>
<h2>How an evaluation works</h2>
<p><strong>1. Data.</strong> Trades, holdings and cash flows come from the linked brokerage account (via Plaid, read-only) or from the proven wallet's on-chain history. Deposits and withdrawals are tracked separately from trading gains.</p>
<p><strong>2. Lot matching.</strong> Every sale is matched against the oldest open purchase lots first (FIFO). Each fully closed position becomes a round trip with an entry, an exit, a holding period and a realized profit or loss. Open lots are valued at current prices to give unrealized P&amp;L.</p>
<p><strong>3. Returns.</strong> We compute a <strong>time-weighted return</strong>, which measures the quality of investment decisions independent of when money was added, and a <strong>money-weighted return</strong> (XIRR), which measures what your actual dollars earned given the timing of deposits and withdrawals.</p>
<p><strong>4. Risk.</strong> A daily, flow-adjusted portfolio index (so a deposit is not counted as a gain, nor a withdrawal as a loss) drives the <strong>maximum drawdown</strong>, annualised <strong>volatility</strong>, and the <strong>Sharpe</strong> and <strong>Sortino</strong> ratios.</p>
<p><strong>5. Trade quality.</strong> From the round trips we derive <strong>win rate</strong>, <strong>profit factor</strong> (gross profits divided by gross losses) and the distribution of <strong>holding periods</strong>.</p>
<h2>From metrics to a grade</h2>
<p>The metrics feed five dimensions: profitability, risk control, consistency, discipline and experience. Each is scored from 0 to 100 and shown as 1 to 5 stars using <strong>stars = 1 + floor(score / 20)</strong>, capped at 5. An overall score maps to a tier:</p>
<ul>
<li>Bronze: below 40</li>
<li>Silver: 40 to below 60</li>
<li>Gold: 60 to below 75</li>
<li>Master: 75 to below 90</li>
<li>Legend: 90 and above</li>
</ul>
<p>When an account has too little history or too few round trips, the evaluation is marked <strong>provisional</strong>: its tier is capped and its confidence is reported as lower, so a short lucky streak cannot earn a top grade.</p>
<h2>Verifiable results</h2>
<p>Every evaluation is stored with its date, the engine version and a digest of the ledger it was computed from. Each performance card carries a verification code that links to that record, so a viewer can confirm the grade was produced by Grader from imported data.</p>
`,
  },
  {
    slug: "we-solved-it",
    title: "How We Solved the Trust Problem",
    summary: "Data from the source, a deterministic engine, and a verification code on every result.",
    html: `
<p>Trading performance online is mostly unverifiable. Screenshots can be cropped or edited, a single winning trade says nothing about the account around it, and self-reported returns rarely account for deposits, withdrawals or risk. Followers cannot tell a disciplined trader from a lucky one, and good traders have no credible way to stand out. Grader addresses this in four ways.</p>
<h2>1. Data comes from the source</h2>
<p>Users do not type in their trades. Brokerage data arrives through Plaid's read-only investments access, and wallet activity is read from the chain after the user proves control of the address by signing a message. A signature proves ownership; it grants no permission to move funds, and Grader never asks for a seed phrase or a transaction approval. Nobody can add a trade they did not make or hide one they did.</p>
<h2>2. One method, applied to everyone</h2>
<p>The performance engine is deterministic: the same ledger and the same engine version always produce the same result. It accounts for cash flows so that adding money is not mistaken for skill, it measures risk as well as return, and it marks small samples as provisional instead of rewarding them.</p>
<h2>3. Results are checkable</h2>
<p>Each evaluation is recorded with its date, engine version and a digest of the underlying ledger. The verification code printed on every shareable card links to that record. If someone shows you a Grader card, you can confirm it is genuine in seconds.</p>
<h2>4. Privacy by default</h2>
<p>Proving performance should not require exposing your net worth. By default, profiles and cards show percentages only; users can choose to show amounts. Plaid access tokens are encrypted with AES-256-GCM and never sent to the browser, passwords are hashed with argon2id, and unlinking an account deletes its token.</p>
<blockquote>The goal is simple: a grade should mean the same thing no matter who earned it, and anyone should be able to check it.</blockquote>
`,
  },
  {
    slug: "tokenomics",
    title: "$GRADER Tokenomics (Planned)",
    summary: "Today $GRADER is an off-chain points program. An on-chain token is planned, not live.",
    html: `
<p><strong>Important:</strong> there is no $GRADER token today. $GRADER currently exists only as off-chain points recorded in Grader's own database. Points cannot be bought, sold, transferred or withdrawn, and they have no monetary value. An on-chain token is planned; this section describes how the program works now and the principles we intend to follow if and when a token is created.</p>
<h2>The points program today</h2>
<ul>
<li><strong>Airdrop tasks.</strong> Users earn points by completing tasks such as linking an account, completing an evaluation, sharing a performance card and taking part in the community.</li>
<li><strong>Staking points.</strong> Users can lock points for 30, 90 or 180 days. Locked points earn a leaderboard multiplier that grows with the lock period. Staking here is a bookkeeping feature inside Grader; it does not involve any blockchain or pay any yield.</li>
<li><strong>Leaderboard.</strong> Point balances and multipliers determine a user's position on the points leaderboard.</li>
</ul>
<h2>Design principles for a future token</h2>
<p>If an on-chain $GRADER token is launched, we intend it to follow these principles:</p>
<ul>
<li><strong>Utility first.</strong> The token should be useful inside the product (see Utility) rather than exist as a speculative instrument.</li>
<li><strong>Community weighting.</strong> A meaningful share of supply should go to people who actually use Grader, with the points program as the main signal of participation.</li>
<li><strong>Transparent allocations.</strong> Total supply, allocations, vesting schedules for the team and any treasury rules will be published in full before launch.</li>
<li><strong>Compliance.</strong> A launch will only happen where and when it is lawful, which may exclude some jurisdictions.</li>
</ul>
<p>We do not promise that points will convert into tokens, at what ratio, or on what date. Any conversion, if it happens, will be announced with its own terms. Nothing here is an offer or solicitation to buy any asset.</p>
`,
  },
  {
    slug: "nfts-membership",
    title: "NFT Membership (Planned)",
    summary: "Paid passes work today through Stripe; an on-chain membership NFT is a planned option.",
    html: `
<p>Grader is usable today without any crypto. Every account receives free tries (three lifetime evaluations by default), and paid passes unlock additional evaluations. Passes are paid by card through Stripe, and card data never touches Grader's servers. This section describes a <strong>planned</strong> on-chain alternative: a membership NFT. It does not exist yet.</p>
<h2>What a membership NFT would do</h2>
<p>The idea is to let a member hold their access in their own wallet rather than only in our database. A membership NFT would be a token in the holder's wallet that Grader recognises when the holder signs in and proves wallet ownership, the same way wallets are proved today: by signing a message. Planned benefits include:</p>
<ul>
<li>Evaluation allowances comparable to a paid pass, renewed for the duration of the membership.</li>
<li>Perks in member spaces: trader clubs and live trade alerts already exist for every member without a token (clubs at /clubs; follow a trader who shares trades live and subscribe to their alerts).</li>
<li>A visible membership mark on the holder's profile.</li>
</ul>
<h2>Design considerations</h2>
<p>Membership must not become a way to buy credibility. A membership NFT would grant access to tools, never a better grade: grades come only from the evaluation engine and imported data. We are also weighing whether membership should be transferable. Transferability lets members resell unused time, but it can complicate fair allocation and compliance. The final choice will be published before any mint.</p>
<p>Card payments will remain available. Nobody will need a wallet, a token or an NFT to get graded, share a card or join the community.</p>
<p>Timelines, pricing and chain choice have not been set. Until an announcement says otherwise, paid passes through Stripe are the only way to purchase additional evaluations.</p>
`,
  },
  {
    slug: "nfts-performance",
    title: "NFT Performance Badges (Planned)",
    summary: "A planned on-chain record of a verified grade, bound to the trader who earned it.",
    html: `
<p>Today, a grade lives in Grader's evaluation record and on the shareable performance card, which carries a verification code linking to that record. A <strong>planned</strong> extension is an NFT performance badge: an on-chain credential that points to a verified evaluation. Badges are planned, not dated, and not live.</p>
<h2>What a badge would contain</h2>
<ul>
<li>The tier (Bronze, Silver, Gold, Master or Legend) and the five star ratings.</li>
<li>The evaluation date and engine version.</li>
<li>The verification code and the ledger digest, so the badge can be checked against the original record.</li>
<li>Whether the result was provisional.</li>
</ul>
<p>A badge would not contain account balances, positions or amounts. The default privacy setting, percentages only, would apply on-chain as it does on cards.</p>
<h2>Non-transferable by design</h2>
<p>A performance badge is only meaningful if it stays with the trader who earned it. Our intended design makes badges non-transferable (often called "soulbound"): they can be issued to, and revoked from, the wallet that proved ownership, but not sold. If grades could be bought, they would stop meaning anything.</p>
<h2>Keeping badges current</h2>
<p>Performance changes. A badge would represent one evaluation at one point in time, and the verification link would always show the current status of the record, including whether a newer evaluation exists. Badges could be refreshed when a trader re-evaluates.</p>
<h2>Why bother with a chain?</h2>
<p>The verification code already proves a result. An on-chain badge would add portability: other applications, communities and exchanges could read a trader's verified tier without depending on a screenshot or an integration with Grader. Minting would remain optional, and all design details remain subject to change.</p>
`,
  },
  {
    slug: "roadmap",
    title: "Roadmap",
    summary: "What is live, what is being built and what is planned, from the V1 engine to DEX integration.",
    html: `
<p>The roadmap below shows the order in which we are building Grader and where each stage stands today. Dates describe what happened or what we intend, not commitments; we ship each stage when it is ready and say so openly when plans change. Items involving tokens or NFTs are planned and depend on technical, legal and market conditions.</p>
<h2>Q1 2025, live: Launch and V1 evaluation</h2>
<p>The core product: account creation, brokerage linking through Plaid, wallet proof with MetaMask and Phantom, and the evaluation engine: FIFO lot matching, realized and unrealized P&amp;L, time-weighted and money-weighted returns, drawdown and risk ratios, win rate, profit factor, holding periods, the five scored dimensions, tiers from Bronze to Legend, and shareable performance cards with verification codes. Free tries and paid passes came with it.</p>
<h2>Q2 2025, live: Social features and airdrop events</h2>
<p>The community layer: posts, replies, likes, follows and direct messages, trader search, the leaderboard market view and the Stars program for traders graded Gold or better. The off-chain $GRADER points program runs airdrop tasks and staking points for 30, 90 or 180 days that boost a leaderboard multiplier.</p>
<h2>In progress: Exchanges, every currency, futures and forex</h2>
<p>Crypto exchange accounts linked with read-only API keys, grades kept in each account's own currency, and Interactive Brokers statements with futures and forex, all through the same verified ledger.</p>
<h2>Planned, not dated: NFT trading badges and rewards</h2>
<p>Non-transferable NFT performance badges tied to verified evaluations, and reward programs for consistent, disciplined traders. Membership NFTs will be evaluated alongside paid passes.</p>
<h2>Planned, not dated: Partnerships and DEX integration</h2>
<p>Partnerships with brokers, education platforms and trading communities that want verified performance data, plus integration with decentralised exchanges so on-chain traders can be evaluated and recognised where they trade. An on-chain $GRADER token would be considered no earlier than this stage.</p>
<h2>Beyond</h2>
<p>Continuous improvements to the engine (each one versioned, so older evaluations remain reproducible), more supported chains and brokers, and live updates of club feeds.</p>
`,
  },
  {
    slug: "key-features",
    title: "Key Features",
    summary: "Everything Grader does today, from linking an account to sharing a verified card.",
    html: `
<h2>Multi-broker and wallet support</h2>
<p>Link brokerage accounts through Plaid, which connects to major US brokers such as Robinhood, Fidelity, Charles Schwab, E*TRADE, Interactive Brokers and Webull. Crypto traders prove ownership of a wallet by signing a message with MetaMask (EVM chains) or Phantom (Solana). Several accounts can be linked to one profile.</p>
<h2>Performance evaluation</h2>
<p>The engine computes FIFO round trips, realized and unrealized P&amp;L, time-weighted and money-weighted returns, maximum drawdown, volatility, Sharpe and Sortino ratios, win rate, profit factor and holding periods, then scores five dimensions (profitability, risk control, consistency, discipline and experience) from 0 to 100, shown as 1 to 5 stars. Small samples are marked provisional. See "What Is Grader?" for the full method.</p>
<h2>Grade badges and performance cards</h2>
<p>Each evaluation produces a tier (Bronze, Silver, Gold, Master or Legend) and a shareable PNG performance card with a verification code that links to the evaluation record: its date, engine version and ledger digest. Cards show percentages only unless you choose to show amounts.</p>
<h2>Evaluation history</h2>
<p>Every evaluation is kept, so you can see how your grade changes over time and re-evaluate as your history grows.</p>
<h2>Community</h2>
<p>Posts, replies, likes, follows and direct messages let traders discuss their process, not just their results. Trader search and the leaderboard market view make it easy to find people worth learning from.</p>
<h2>Stars</h2>
<p>Traders graded Gold or better can apply to become Stars, featured profiles that highlight verified, consistent performance.</p>
<h2>$GRADER points</h2>
<p>An off-chain points program rewards participation through airdrop tasks and staking points for 30, 90 or 180 days, which raises a leaderboard multiplier. Points have no monetary value.</p>
<h2>Fair access</h2>
<p>Every account gets free tries (three lifetime evaluations by default); paid passes add more. Grades cannot be purchased.</p>
`,
  },
  {
    slug: "utility",
    title: "Utility",
    summary: "What $GRADER points do today, and what a future token is planned to do.",
    html: `
<p>A token without a purpose is just a price chart. Our approach is to build the product first, let points prove which incentives actually help the community, and only then consider moving those incentives on-chain.</p>
<h2>Today: points</h2>
<ul>
<li><strong>Leaderboard standing.</strong> Points, and the multiplier earned by staking them for 30, 90 or 180 days, determine a user's position on the points leaderboard.</li>
<li><strong>Recognition of participation.</strong> Airdrop tasks reward the actions that make Grader more useful for everyone: linking real accounts, completing evaluations, sharing verified cards and contributing to discussions.</li>
<li><strong>A record for the future.</strong> Point history is the main signal we intend to use if a token distribution ever happens, though no conversion is promised.</li>
</ul>
<p>Points have no monetary value and cannot be bought, sold or transferred.</p>
<h2>Planned: token utility</h2>
<p>If an on-chain $GRADER token launches, its planned uses are:</p>
<ul>
<li><strong>Staking.</strong> Locking tokens to earn leaderboard multipliers and staking rewards, extending today's points staking.</li>
<li><strong>Leaderboard rewards.</strong> Periodic rewards for top-ranked traders, weighted toward risk-adjusted consistency rather than raw returns.</li>
<li><strong>Trader clubs.</strong> Member-run groups organised around strategies or markets, live today at /clubs: Gold-or-better traders and Stars start them, each has its own feed, members list and leaderboard. Token holders may gain access to clubs that ask for it.</li>
<li><strong>Live trade alerts.</strong> These exist today for every member, without a token: a trader opts in to share trades live (with a delay and sizes hidden if they choose), and followers who subscribe get an alert with the symbol, the side, the trader's verified tier and the trade's share of the portfolio. A token could add perks around them; the alerts themselves stay free.</li>
<li><strong>Product payments.</strong> Paying for evaluation passes and memberships, alongside card payments, which will stay available.</li>
</ul>
<p>One principle is fixed: <strong>tokens will never buy a grade.</strong> Grades come only from imported data and the evaluation engine. Utility covers access, recognition and rewards, never credibility itself.</p>
<p>All token utility is planned and subject to change, legal review and availability in each jurisdiction.</p>
`,
  },
  {
    slug: "revenue-streams",
    title: "Revenue Streams",
    summary: "How Grader earns money today, what we plan to add, and what we will never do.",
    html: `
<p>A verification service is only trustworthy if its business model does not depend on inflating results. Grader is designed to earn money from the value of honest evaluation, never from flattering grades or from selling user data.</p>
<h2>Today</h2>
<ul>
<li><strong>Paid passes.</strong> Every account gets free tries (three lifetime evaluations by default). Paid passes, purchased by card through Stripe, unlock further evaluations. This is Grader's main revenue stream today.</li>
</ul>
<h2>Planned</h2>
<ul>
<li><strong>Memberships.</strong> Recurring plans, possibly including an on-chain membership NFT, bundling evaluations with perks in trader clubs and live trade alerts.</li>
<li><strong>Partnerships.</strong> Brokers, education platforms and trading communities that want to recognise verified performance, for example to run competitions or to feature disciplined traders. Any commercial relationship will be disclosed, and partners will not influence grades.</li>
<li><strong>Verification services.</strong> Tools that let third parties check a verification code or a performance badge at scale, with the trader's consent.</li>
<li><strong>Premium analytics.</strong> Deeper breakdowns of a trader's own history, such as performance by holding period, sector or time of day.</li>
</ul>
<h2>What we will not do</h2>
<ul>
<li>Sell or rent personal data, trades or holdings.</li>
<li>Use advertising trackers.</li>
<li>Accept payment to change, improve or feature a grade. Stars are selected from traders graded Gold or better who apply; the grade requirement cannot be bought.</li>
<li>Execute trades or take custody of funds.</li>
</ul>
<p>If a token launches, a share of product revenue could support the planned deflation mechanisms described next. That is a design intention, not a commitment.</p>
`,
  },
  {
    slug: "deflation",
    title: "Deflation Mechanics (Planned)",
    summary: "Planned burn mechanisms for a future token. Nothing is burned today because no token exists.",
    html: `
<p>This section describes mechanisms we are <strong>considering</strong> for a future on-chain $GRADER token. There is no token today, so nothing is minted, bought back or burned. Off-chain points are not affected by anything in this section.</p>
<h2>Why deflation at all?</h2>
<p>Many tokens lose value to steady issuance: rewards are minted faster than real demand grows. Our aim is to tie any token supply changes to actual product use, so that the supply reflects how much the product is used rather than how much marketing it receives.</p>
<h2>Mechanisms under consideration</h2>
<ul>
<li><strong>Usage burns.</strong> When tokens are used to pay for evaluation passes or memberships, a fixed share of those tokens would be permanently removed from circulation.</li>
<li><strong>Revenue-funded buyback and burn.</strong> A defined share of product revenue could be used to buy tokens on the open market and burn them, published on a regular schedule.</li>
<li><strong>Early-unstake penalties.</strong> Tokens staked for 30, 90 or 180 days and withdrawn early could forfeit part of the stake to a burn address, mirroring the commitment that today's staking points represent.</li>
<li><strong>Capped emissions.</strong> Rewards for staking and leaderboards would come from a fixed, published allocation rather than open-ended minting.</li>
</ul>
<h2>Transparency</h2>
<p>Any burn would be executed on-chain and reported with transaction references, so the community can verify it independently, in the same spirit as the verification codes on Grader cards.</p>
<h2>Limits of this section</h2>
<p>Deflationary mechanics do not guarantee that any token will hold or gain value. Prices depend on many factors outside our control. The parameters above have not been fixed, may change or be dropped, and will be published in full before any token exists. None of this is investment advice or an offer.</p>
`,
  },
  {
    slug: "involved",
    title: "Get Involved",
    summary: "Get graded, join the conversation, earn points and help shape what we build next.",
    html: `
<p>Grader gets better as more real traders use it. Here is how to take part today.</p>
<h2>1. Get graded</h2>
<p>Create an account and link a brokerage through Plaid, or prove a MetaMask or Phantom wallet by signing a message. Wallet options are available on desktop browsers. Your first evaluations are free (three lifetime tries by default). Review your five dimensions and see which habits are helping or hurting your results.</p>
<h2>2. Share your card</h2>
<p>Download your performance card and share it wherever you talk about trading. The verification code lets anyone confirm it is genuine. By default, cards show percentages only.</p>
<h2>3. Join the community</h2>
<p>Post about your process, reply to others, follow traders whose approach you respect and send direct messages. Use trader search and the leaderboard market view to find people worth learning from. Good discussion focuses on method and risk, not just wins.</p>
<h2>4. Earn $GRADER points</h2>
<p>Complete airdrop tasks and stake your points for 30, 90 or 180 days to raise your leaderboard multiplier. Points are off-chain and have no monetary value; they recognise participation.</p>
<h2>5. Apply to become a Star</h2>
<p>If you are graded Gold or better, you can apply to be featured as a Star. Stars are visible examples of verified, consistent performance.</p>
<h2>6. Tell us what to build</h2>
<p>Feedback shapes the roadmap. Send bug reports, feature ideas, broker or chain requests and partnership proposals through the contact page. If you run a trading community or education platform and want verified performance for your members, we would like to hear from you.</p>
<blockquote>Trade with a plan, measure honestly and learn from people who can prove what they do.</blockquote>
`,
  },
  {
    slug: "disclaimer",
    title: "Disclaimer",
    summary: "Not investment advice. Past performance does not predict future results. No token is offered.",
    html: `
<p>Please read this disclaimer carefully. It applies to this white paper, the Grader website and application, performance cards, grades, the community and all related communications.</p>
<h2>Not investment advice</h2>
<p>Nothing provided by Grader is investment, financial, legal, tax or accounting advice, or a recommendation to buy, sell or hold any security, cryptocurrency or other asset. Grader is not a broker-dealer, investment adviser or exchange, does not execute trades and does not hold user funds. Content posted by users, including Stars, reflects their own views. Consult a qualified professional before making financial decisions.</p>
<h2>Past performance</h2>
<p>Grades, star ratings, returns and risk metrics describe historical data only. <strong>Past performance does not predict future results.</strong> A high grade does not mean a trader will be profitable in the future, and copying any trader's activity can lead to losses. Evaluations depend on data supplied by third parties such as Plaid, brokers and blockchains, which may be incomplete or delayed, and on a method that has limits. Provisional evaluations carry lower confidence.</p>
<h2>Tokens and NFTs</h2>
<p><strong>No token, coin or NFT is offered or sold today.</strong> $GRADER currently refers to off-chain points that have no monetary value and cannot be bought, sold, transferred or redeemed. Descriptions of a future token, staking rewards, NFT memberships, performance badges, burns and DEX integration are statements of current plans. They may change, be delayed or never happen, and they are not an offer or solicitation to buy or sell any asset in any jurisdiction. There is no promise that points will convert into any token.</p>
<h2>Forward-looking statements</h2>
<p>The roadmap and other forward-looking statements reflect our intentions at the time of writing. Actual results may differ materially because of technical, regulatory, market or business factors.</p>
<h2>Risk</h2>
<p>Trading stocks and crypto-assets involves substantial risk, including the loss of all capital invested. Crypto-assets are especially volatile and may be subject to limited regulatory protection. Only invest money you can afford to lose.</p>
`,
  },
];

/** Looks a section up by slug (compared as text); undefined when unknown. */
export function findSection(slug: string): WhitePaperSection | undefined {
  const wanted = String(slug);
  return sections.find((s) => s.slug === wanted);
}
