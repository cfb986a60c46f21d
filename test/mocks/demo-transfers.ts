import crypto from "node:crypto";

// The demo's moves between two of one trader's accounts (issue 31, DECISIONS 207): the demo
// MetaMask wallet (test/mocks/evm.ts, EVM_SCENARIO_KEY) funds the demo Binance account
// (test/mocks/binance.ts, key demo-read-only) and receives a withdrawal from it. Each simulator
// serves its own side with the same chain transaction, as the chain and the exchange would. No
// imports of either simulator, so both can import this.

const DAY = 86_400_000;
/** The demo Binance year starts here (fixed, so a test can compute its figures by hand). */
export const DEMO_BINANCE_START = Date.UTC(2025, 11, 1);
/** The demo Binance account's uid (key demo-read-only); other demo keys get other uids. */
export const DEMO_BINANCE_UID = 35000001;
/** Binance's deposit address for the demo account's USDT on Ethereum. */
export const DEMO_BINANCE_DEPOSIT_ADDRESS = "0x00000000000000000000000000000000b1a2c3d4";
/** Binance's hot wallet, the sender of its withdrawals on Ethereum ("Binance 14"). */
export const BINANCE_HOT_WALLET = "0x28c6c06298d514db089934071355e5743bf21d60";

/** The chain transaction of a Binance account's deposit or withdrawal (the simulator's txId). */
export function binanceTxId(kind: "dep" | "wd", uid: number): string {
  return `0x${crypto.createHash("sha256").update(`${kind}${uid}`).digest("hex")}`;
}

/** 10,000 USDT: into the wallet from outside the day before, sent on to Binance, credited 30 minutes later. */
export const DEMO_WALLET_TO_BINANCE = {
  funded: DEMO_BINANCE_START - DAY,
  sent: DEMO_BINANCE_START + 1_800_000,
  credited: DEMO_BINANCE_START + 3_600_000,
  amount: 10_000,
  txId: binanceTxId("dep", DEMO_BINANCE_UID),
};

/** 0.1 ETH withdrawn (fee 0.001 ETH): applied, in the wallet 5 minutes later, completed at 10. */
export const DEMO_BINANCE_TO_WALLET = {
  applied: DEMO_BINANCE_START + 250 * DAY,
  arrives: DEMO_BINANCE_START + 250 * DAY + 300_000,
  completed: DEMO_BINANCE_START + 250 * DAY + 600_000,
  amount: 0.1,
  fee: 0.001,
  txId: binanceTxId("wd", DEMO_BINANCE_UID),
};
