// The engine's version and what each version changed, side by side so a bump brings its entry
// (version.test.ts fails without one). Plain data: the report imports this file alone, never the
// engine.

/** Bump whenever a formula, anchor or weight changes a stored grade (docs/GRADING.md §9). */
export const ENGINE_VERSION = "3.4.0";

/**
 * What each version changed, in the trader's words, newest first. The report shows the entry of a
 * grade's version once the grade before it came from another one.
 */
export const ENGINE_CHANGELOG: Readonly<Record<string, readonly string[]>> = {
  "3.4.0": [
    "An airdrop or a staking reward received in coins counts as income at its market value, not as money you put in; with no reliable price for it, it counts as 0, so a token nobody trades cannot lift your grade.",
    "Wrapping a coin (ETH into WETH) or bridging it to another chain keeps its cost and its purchase date: no profit or loss is booked, and the round trip goes on until you sell.",
    "Only trades count as trades: coins received, sent or paid as fees no longer add to your number of trades or instruments, and a day holding only something worth nothing is not an active day.",
    "Buying a token where nobody else trades it (a pool of your own, a price the source does not vouch for) no longer marks up what you already hold: the position stays at what you paid until a trusted price says more.",
  ],
  "3.3.0": [
    "A price its source does not vouch for (a thin token's, below the price source's confidence threshold) can lower a position's value but never raise it: the position is held at the lower of that price and the last price you really traded at or a trusted source gave.",
    "The report lists the positions valued at cost for want of a reliable price.",
    "Risk control counts only how far your returns fall below the risk-free rate (downside deviation), not how much they swing: a bigger gain never lowers your grade.",
    "Your days start at midnight in your time zone (settings), not in UTC: an evening session is one day, whatever the hour.",
    "A fee paid in a coin (gas in ETH, a trading fee in BNB) lowers your return as a fee: it is no longer read as money you took out.",
  ],
  "3.2.0": [
    "Futures, forex and CFDs have a place in your record: a contract's size (its multiplier, 50 for an E-mini S&P 500 future) counts in its profit and loss.",
    "Exposure and leverage are measured on the full value of the contracts you hold, so a future worth ten times your account is graded as ten times leverage.",
    "A future or a CFD takes only its margin out of cash: holding one no longer reads as cash below zero.",
    "Swap and rollover interest on a forex position counts as income or as a fee.",
    "A contract still open after its expiry with no closing trade is closed at its last price on its expiry day, and the report says so.",
    "A record without futures, forex or CFDs grades exactly as before.",
  ],
  "3.1.0": [
    "Every currency: trades, deposits, dividends and fees in euros, pounds, Canadian dollars or any other currency count in your grade, each converted into your base currency at its own day's reference rate, instead of being left out.",
    "Cash held in another currency is valued every day at that day's rate, and exchanging it back realizes the gain or loss, shown on its own as FX P&L.",
    "When you hold another currency, the report says how much of your return came from the assets themselves and how much from the currency's move.",
    "A dollar ledger grades exactly as before.",
  ],
  "3.0.0": [
    "Profitability now rewards what you earned beyond the market for the market risk you took (alpha against the S&P 500 or Bitcoin): a record that only rides the market lands in the middle of the scale, whatever the market did.",
    "Consistency compares you with the market over the same days: months ahead of it, and a Sharpe ratio beyond its own.",
    "Sharpe, Sortino, the skill-versus-luck figure and alpha now count returns above the 3-month US Treasury bill rate.",
    "Returns over a year are annualised over calendar time, idle days included.",
    "A swap's two sides at the same moment are one exchange: they no longer read as leverage or as cash below zero.",
    "Very small quantities and prices (down to one wei) are counted exactly through partial sales.",
  ],
  "2.0.0": [
    "Splits, dividends and interest, account fees, transfers between your accounts and tokens sent or received are now part of your record.",
    "Profitability is measured against the market (the S&P 500 for stocks, Bitcoin for crypto), and a record that lost money while the market did better is capped at Bronze.",
    "Records shorter than a year are no longer annualised, and losses are capped at −100 %.",
    "Experience and confidence count the days you actually traded or held positions, so an old tiny trade no longer lengthens your record.",
    "Leverage is measured at every trade: over 2× gross exposure discounts the grade.",
    "A new skill-versus-luck figure says how likely your edge is real.",
  ],
  "1.0.0": ["The first engine."],
};
