// Shared by the market pages (browser) and app/server/community/market.server.ts.
export const LEADERBOARD_SORTS = ["score", "return", "drawdown", "followers"] as const;
export const MARKET_TRADE_SORTS = ["time", "symbol"] as const;
export const ASSET_CLASSES = ["stock", "etf", "crypto", "option"] as const;
export const TIERS = ["Bronze", "Silver", "Gold", "Master", "Legend"] as const;
