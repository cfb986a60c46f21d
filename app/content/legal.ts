// Privacy policy and terms of service. Plain data: no React, no imports.
// "{supportEmail}" is a placeholder that the rendering route substitutes with the support address.

export type LegalPage = {
  slug: "privacy" | "terms";
  title: string;
  /** One sentence for search results and link previews. */
  description: string;
  /** Display date, e.g. "21 November 2026". */
  updated: string;
  /** Simple semantic HTML: <h2>, <h3>, <p>, <ul><li>, <strong>. */
  html: string;
};

const UPDATED = "21 November 2026";

export const privacy: LegalPage = {
  slug: "privacy",
  title: "Privacy Policy",
  description:
    "What Grader stores about you (account, linked accounts, trades, grades), why, for how long, and your rights.",
  updated: UPDATED,
  html: `
<p>This policy explains what information Grader collects, why we collect it, how long we keep it, who helps us process it and what choices you have. Grader evaluates trading performance from data you choose to link. We do not sell personal data and we do not use advertising trackers.</p>

<h2>What we store</h2>
<h3>Your account</h3>
<ul>
<li><strong>Email address</strong>, used to sign in and to contact you about your account.</li>
<li><strong>Password</strong>, stored only as an argon2id hash. We never store or see your password in readable form. If you sign in with Google or Apple, we store the identifier those providers give us instead of a password.</li>
<li><strong>Profile fields</strong> you choose to fill in, such as display name, handle, bio and avatar image.</li>
<li><strong>Sessions</strong>: a record in our database for each signed-in session, so you can stay signed in and so sessions can be revoked.</li>
</ul>
<h3>Linked accounts and trading data</h3>
<ul>
<li><strong>Brokerage connections through Plaid.</strong> When you link a brokerage, Plaid gives us an access token. We encrypt it with AES-256-GCM before storing it, and it is never sent to your browser. We request read-only investment data; Grader cannot place trades or move money.</li>
<li><strong>Crypto wallets.</strong> We store wallet addresses you prove you control by signing a message in MetaMask or Phantom. The signature proves ownership only; we never ask for a seed phrase or private key, and signing grants no permission to move funds.</li>
<li><strong>Imported data</strong>: trades, holdings and cash flows (deposits and withdrawals) retrieved from linked accounts or from public blockchain records.</li>
<li><strong>Evaluations and their history</strong>: the metrics, scores, star ratings and tier produced for each evaluation, with its date, engine version, ledger digest and verification code.</li>
</ul>
<h3>Community activity</h3>
<ul>
<li>Posts, replies, likes, follows and direct messages you send or receive.</li>
<li>$GRADER points activity, such as completed tasks and staking periods, and Stars applications.</li>
</ul>
<h3>Other information</h3>
<ul>
<li><strong>Page-view events</strong>, including the page viewed, the time and, for shared cards and profiles, the share source (for example, which link or platform a visitor came from). We use these to understand how the product is used and how shared cards perform.</li>
<li><strong>Contact messages</strong> you send us through the contact page.</li>
<li><strong>Payment records</strong> for passes: the amount, date, status and the reference Stripe gives us. Card details are entered directly with Stripe and <strong>never touch our servers</strong>.</li>
<li><strong>Rate-limit counters</strong> keyed by IP address, used to protect sign-in, sign-up and other sensitive actions from abuse.</li>
</ul>

<h2>Why we use it</h2>
<ul>
<li>To provide the service: sign you in, import your data, compute evaluations, generate performance cards and run the community.</li>
<li>To verify results: verification codes and evaluation records let anyone confirm a card is genuine.</li>
<li>To process payments for passes and keep records required by law.</li>
<li>To keep Grader secure: detect abuse, prevent grade manipulation and enforce our Terms.</li>
<li>To improve the product, using aggregated page-view events.</li>
<li>To answer your messages and support requests.</li>
</ul>

<h2>What others can see</h2>
<p>Your profile, grades, star ratings, posts and public activity are visible to other users and, for shared cards, to anyone with the link. Direct messages are visible only to their participants. Your privacy setting controls how performance is shown: <strong>percentages only</strong> (the default) or <strong>amounts</strong> as well. With percentages only, balances and dollar amounts are not displayed on your profile or cards.</p>

<h2>How long we keep it</h2>
<ul>
<li>Account, profile, evaluation and community data: for as long as your account exists.</li>
<li>Plaid access tokens: until you unlink the account or delete your Grader account. <strong>Unlinking an account deletes its token.</strong></li>
<li>Imported trades, holdings and cash flows: while the linked account or wallet remains on your profile, and as needed to keep existing evaluation records verifiable.</li>
<li>Sessions: until you sign out or the session expires.</li>
<li>Page-view events and contact messages: no longer than needed for the purposes above, generally up to 24 months.</li>
<li>Payment records: as long as tax and accounting law requires.</li>
<li>Rate-limit counters: short-lived, typically minutes to hours.</li>
</ul>
<p>When you delete your account we delete or anonymise your personal data, except where we must keep records by law.</p>

<h2>Who processes it</h2>
<ul>
<li><strong>Plaid</strong> connects your brokerage account and provides read-only investment data. Plaid's own privacy policy applies to the information you give Plaid.</li>
<li><strong>Stripe</strong> processes payments for passes.</li>
<li><strong>Google and Apple</strong>, if you choose to sign in with them.</li>
<li><strong>Our email transport provider</strong>, which delivers account and support emails.</li>
<li>Our hosting and database infrastructure providers, which store data on our behalf.</li>
</ul>
<p>We share information only with these providers to run the service, or when required by law. We do not sell or rent personal data.</p>

<h2>Your rights and choices</h2>
<ul>
<li><strong>Access and export.</strong> Request a copy of your data through the contact page at /contact or by writing to {supportEmail}.</li>
<li><strong>Deletion.</strong> Request deletion of your account and data through /contact or {supportEmail}.</li>
<li><strong>Correction.</strong> Edit your profile at any time in settings.</li>
<li><strong>Unlinking.</strong> Unlink a brokerage or wallet at any time; for a brokerage, this deletes its access token.</li>
<li><strong>Visibility.</strong> Choose between showing amounts or percentages only.</li>
</ul>
<p>Depending on where you live, you may have additional rights, such as objecting to processing or complaining to a data protection authority. We respond to requests within 30 days.</p>

<h2>Cookies</h2>
<p>Grader uses <strong>one session cookie</strong> to keep you signed in. It is HttpOnly (not readable by scripts) and SameSite=Lax, and it contains only a random session identifier. We do not use advertising or cross-site tracking cookies.</p>

<h2>Security</h2>
<ul>
<li>Plaid access tokens encrypted at rest with AES-256-GCM, never sent to the browser.</li>
<li>Passwords hashed with argon2id.</li>
<li>Server-side sessions stored in the database, which can be revoked.</li>
<li>Encrypted connections (HTTPS) and security headers.</li>
<li>Rate limiting on sign-in and other sensitive actions.</li>
<li>Read-only data access: Grader cannot trade or move funds.</li>
</ul>
<p>No system is perfectly secure. If we learn of a breach affecting your data, we will notify you as required by law.</p>

<h2>Children</h2>
<p>Grader is not intended for anyone under 18, and we do not knowingly collect data from children.</p>

<h2>Changes and contact</h2>
<p>We will post changes to this policy on this page and update the date above; for material changes we will also notify you by email or in the app. Questions: {supportEmail} or /contact.</p>
`.trim(),
};

export const terms: LegalPage = {
  slug: "terms",
  title: "Terms of Service",
  description:
    "The rules for using Grader: accounts, acceptable use, paid passes, the points program and our liability.",
  updated: UPDATED,
  html: `
<p>These Terms govern your use of Grader, including the website, evaluations, performance cards, the community and the $GRADER points program. By creating an account or using Grader you agree to these Terms and to our Privacy Policy.</p>

<h2>Eligibility</h2>
<p>You must be at least 18 years old and able to form a binding contract. You may only link brokerage accounts and wallets that you own or are authorised to use. You may not use Grader where doing so would break the law that applies to you.</p>

<h2>Your account</h2>
<ul>
<li>Provide accurate information and keep your sign-in details secure. You are responsible for activity under your account.</li>
<li>One person, one account. Do not share, sell or transfer accounts.</li>
<li>Tell us promptly at {supportEmail} if you believe your account has been compromised.</li>
</ul>

<h2>Linked accounts and evaluations</h2>
<p>Grader reads data from linked brokerages through Plaid and from public blockchain records for wallets you prove by signing a message. Access is read-only: Grader does not place trades or hold funds. Evaluations depend on third-party data that may be incomplete, delayed or wrong, and on a method that has limits. We may re-evaluate, mark results as provisional or withdraw an evaluation if the underlying data proves inaccurate.</p>

<h2>Acceptable use</h2>
<p>You agree not to:</p>
<ul>
<li><strong>Manipulate grades</strong>, for example by linking accounts you do not control, fabricating or altering data, coordinating trades between accounts to inflate results, or exploiting errors in the engine.</li>
<li>Alter performance cards or present a card, grade or verification code as belonging to someone else.</li>
<li><strong>Impersonate</strong> any person or organisation, or misrepresent your affiliation.</li>
<li><strong>Scrape</strong>, crawl or harvest data from Grader by automated means, or bypass rate limits.</li>
<li>Post unlawful, abusive, harassing or misleading content, spam, or promotions of pump-and-dump or other manipulative schemes.</li>
<li>Offer personalised investment advice or solicit money from other users through the community or direct messages.</li>
<li>Interfere with the security or operation of the service.</li>
</ul>
<p>We may remove content, revoke grades, Stars status or points, and suspend accounts that break these rules.</p>

<h2>Your content</h2>
<p>You keep ownership of what you post. You give Grader a non-exclusive, worldwide, royalty-free licence to host, display and distribute it as needed to run the service, including showing your shared cards to people who open their links.</p>

<h2>Free tries, paid passes and refunds</h2>
<ul>
<li>Each account receives a limited number of free evaluations (three lifetime tries by default).</li>
<li>Paid passes unlock additional evaluations as described at purchase. Payments are processed by Stripe. Prices include or exclude taxes as shown at checkout.</li>
<li>A pass buys access to evaluations, never a particular grade.</li>
<li>If a pass has not been used, you may request a refund within 14 days of purchase at {supportEmail}. Used passes are not refundable except where the law requires or where an evaluation failed because of an error on our side. Nothing here limits your statutory rights.</li>
</ul>

<h2>$GRADER points</h2>
<p>The $GRADER points program is <strong>off-chain</strong>: points are entries in Grader's database. Points have <strong>no monetary value</strong>, are not property, and cannot be bought, sold, transferred, withdrawn or exchanged for money or any asset. Staking points for 30, 90 or 180 days only affects your leaderboard multiplier. We may change the program, adjust balances to correct errors or abuse, or end it. A future on-chain token is planned but not offered, and there is no promise that points will convert into it.</p>

<h2>Not investment advice</h2>
<p>Grader provides information about historical performance. Nothing on Grader, including grades, star ratings, leaderboards, Stars profiles, posts, messages, blog articles or the white paper, is investment, financial, tax or legal advice or a recommendation to trade. Past performance does not predict future results. You are solely responsible for your investment decisions.</p>

<h2>Disclaimers</h2>
<p>Grader is provided "as is" and "as available". To the extent permitted by law, we disclaim all warranties, express or implied, including accuracy, fitness for a particular purpose and uninterrupted availability. We are not responsible for third-party services such as Plaid, brokers, wallets, blockchains, Stripe or sign-in providers.</p>

<h2>Limitation of liability</h2>
<p>To the extent permitted by law, Grader will not be liable for indirect, incidental, special or consequential damages, or for trading losses or lost profits, arising from your use of the service. Our total liability for any claim is limited to the greater of the amount you paid us in the 12 months before the claim or 100 US dollars. Some jurisdictions do not allow these limits, in which case they apply only as far as permitted.</p>

<h2>Termination</h2>
<p>You may stop using Grader and request deletion of your account at any time through /contact or {supportEmail}. We may suspend or end your access if you break these Terms, if required by law, or to protect users or the service. On termination, unused points are forfeited, and sections that by their nature should survive (including disclaimers and liability limits) continue to apply.</p>

<h2>Changes</h2>
<p>We may update these Terms. We will post the new version here with a new date and, for material changes, notify you by email or in the app. Continuing to use Grader after changes take effect means you accept them.</p>

<h2>Contact</h2>
<p>Questions about these Terms: {supportEmail} or the contact page at /contact.</p>
`.trim(),
};
