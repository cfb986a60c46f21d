// Where the wallet adapters go in demo mode (EVM_EXPLORER_URL / SOLANA_RPC_URL unset): addresses
// the msw simulators in test/mocks/evm.ts and test/mocks/solana.ts answer. No imports, so both the
// app and the simulators can use it.
export const DEMO_EVM_EXPLORER_URL = "https://explorer.demo.grader.invalid/api";
export const DEMO_SOLANA_RPC_URL = "https://solana-rpc.demo.grader.invalid/";
/** Where the Binance simulator answers in demo mode: a host that never resolves, so nothing leaks. */
export const DEMO_BINANCE_URL = "https://binance.demo.grader.invalid";
/** Where the IBKR Flex Web Service simulator answers in demo mode (IBKR_FLEX_URL unset). */
export const DEMO_IBKR_FLEX_URL = "https://ibkr.demo.grader.invalid/AccountManagement/FlexWebService";
/** Where the Kraken simulator answers in demo mode (test/mocks/kraken.ts). */
export const DEMO_KRAKEN_URL = "https://kraken.demo.grader.invalid";
/** Where the Coinbase simulator answers in demo mode (test/mocks/coinbase.ts). */
export const DEMO_COINBASE_URL = "https://coinbase.demo.grader.invalid";
/** Where the OKX simulator answers in demo mode (test/mocks/okx.ts). */
export const DEMO_OKX_URL = "https://okx.demo.grader.invalid";
/** Where the Bybit simulator answers in demo mode (test/mocks/bybit.ts). */
export const DEMO_BYBIT_URL = "https://bybit.demo.grader.invalid";
