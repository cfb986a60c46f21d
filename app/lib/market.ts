// Shared by the market pages (browser) and app/server/community/market.server.ts.
export const LEADERBOARD_SORTS = ["score", "return", "drawdown", "followers"] as const;
export const MARKET_TRADE_SORTS = ["time", "symbol"] as const;
