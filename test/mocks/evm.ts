import { computeAddress, getAddress, Interface, recoverAddress } from "ethers";
import { delay, http, HttpResponse } from "msw";
import { DEMO_EVM_EXPLORER_URL } from "../../app/sources/wallet-demo";
import { baseUnits, hexDigest, memo, simulateTrading, type SimEvent } from "./wallet-sim";

/**
 * A simulator of an Etherscan-compatible explorer API (module=account, action=txlist | tokentx,
 * paged with page/offset, sort=asc) for demo mode and tests. Any address gets a deterministic
 * history seeded by the address: about six months of Uniswap-style swaps between stablecoins
 * (USDC, USDT, DAI) and WETH, LINK, UNI, PEPE, AAVE, some token for token, some paid in native
 * ETH, a few deposits, winners and losers. Answers have Etherscan's shapes and strings.
 *
 * Failure simulation, by the wallets of three well-known private keys (so tests can sign for them):
 *   0x…01 → HTTP 500;  0x…02 → never answers;  0x…03 → malformed JSON;
 *   0x…04 → flaky: every second reading of its history fails with HTTP 503 (to show that a failed
 *           re-import leaves the earlier ledger as it was);
 *   0x…05 → HTTP 500 as well, for the browser tests (a failed first import keeps its account, so
 *           the browser and the integration tests, sharing one database in CI, need two wallets).
 */
export const EVM_FAILURE_KEYS = {
  explorer500: `0x${"0".repeat(63)}1`,
  timeout: `0x${"0".repeat(63)}2`,
  malformed: `0x${"0".repeat(63)}3`,
  flaky: `0x${"0".repeat(63)}4`,
  explorer500Browser: `0x${"0".repeat(63)}5`,
} as const;
const flakyReads = new Map<string, number>();
const FAILURES = new Map(Object.entries(EVM_FAILURE_KEYS).map(([mode, key]) => [computeAddress(key).toLowerCase(), mode === "explorer500Browser" ? "explorer500" : mode]));

type Token = { address: string; symbol: string; name: string; decimals: number; price: number };
const TOKENS: Token[] = [
  { address: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2", symbol: "WETH", name: "Wrapped Ether", decimals: 18, price: 2600 },
  { address: "0x514910771af9ca656af840dff83e8264ecf986ca", symbol: "LINK", name: "ChainLink Token", decimals: 18, price: 15 },
  { address: "0x1f9840a85d5af5bf1d1762f925bdaddc4201f984", symbol: "UNI", name: "Uniswap", decimals: 18, price: 8 },
  { address: "0x6982508145454ce325ddbe47a25d4ec3d2311933", symbol: "PEPE", name: "Pepe", decimals: 18, price: 0.00001 },
  { address: "0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddaa9", symbol: "AAVE", name: "Aave Token", decimals: 18, price: 220 },
];
const STABLES: Token[] = [
  { address: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", symbol: "USDC", name: "USD Coin", decimals: 6, price: 1 },
  { address: "0xdac17f958d2ee523a2206206994597c13d831ec7", symbol: "USDT", name: "Tether USD", decimals: 6, price: 1 },
  { address: "0x6b175474e89094c44da98b954eedeac495271d0f", symbol: "DAI", name: "Dai Stablecoin", decimals: 18, price: 1 },
];
const BY_ADDRESS = new Map([...TOKENS, ...STABLES].map((t) => [t.address, t]));
const ROUTER = "0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad";
const EXCHANGE = "0x28c6c06298d514db089934071355e5743bf21d60";
const WETH = TOKENS[0]!.address;

type Row = Record<string, string>;
type History = { txlist: Row[]; tokentx: Row[] };

const cache = memo<History>();

function pool(a: string, b: string) {
  return `0x${hexDigest("pool", [a, b].sort().join("-")).slice(0, 40)}`;
}

export function demoEvmHistory(address: string): History {
  const me = address.toLowerCase();
  return cache(me, () => {
    const events = simulateTrading(`evm:${me}`, TOKENS.map((t) => ({ key: t.address, basePrice: t.price })), STABLES.map((s) => s.address));
    const txlist: Row[] = [];
    const tokentx: Row[] = [];
    events.forEach((e: SimEvent, n) => {
      const hash = `0x${hexDigest("evm", me, String(e.index))}`;
      const block = 22_390_000 + Math.floor((e.time - 1746057600) / 12);
      const gasPrice = String((5 + (n % 7) * 3) * 1_000_000_000);
      const common = { blockNumber: String(block), timeStamp: String(e.time), hash, nonce: String(n), blockHash: `0x${hexDigest("block", String(block))}`, transactionIndex: String(n % 150), gasPrice, confirmations: "120000" };
      const transfer = (token: Token, from: string, to: string, amount: number, logIndex: number): Row => ({
        ...common,
        from,
        contractAddress: token.address,
        to,
        value: baseUnits(amount, token.decimals),
        tokenName: token.name,
        tokenSymbol: token.symbol,
        tokenDecimal: String(token.decimals),
        gas: "250000",
        gasUsed: "0",
        cumulativeGasUsed: "0",
        logIndex: String(logIndex),
        input: "deprecated",
      });
      if ("deposit" in e) {
        tokentx.push(transfer(BY_ADDRESS.get(e.deposit)!, EXCHANGE, me, e.amount, 40 + (n % 50)));
        return;
      }
      const out = BY_ADDRESS.get(e.outToken)!;
      const inn = BY_ADDRESS.get(e.inToken)!;
      // Every other WETH sale is paid in native ETH (the transaction's value) instead.
      const nativeOut = out.address === WETH && e.index % 2 === 0;
      const failedFirst = e.index % 23 === 5; // a reverted attempt before some swaps
      if (failedFirst) {
        txlist.push({ ...common, hash: `0x${hexDigest("evm-reverted", me, String(e.index))}`, from: me, to: ROUTER, value: "0", gas: "300000", gasUsed: "45000", cumulativeGasUsed: "900000", isError: "1", txreceipt_status: "0", input: "0x3593564c", contractAddress: "", methodId: "0x3593564c", functionName: "execute(bytes commands,bytes[] inputs,uint256 deadline)" });
      }
      txlist.push({ ...common, from: me, to: ROUTER, value: nativeOut ? baseUnits(e.outAmount, 18) : "0", gas: "300000", gasUsed: String(120_000 + (n % 9) * 9000), cumulativeGasUsed: "2100000", isError: "0", txreceipt_status: "1", input: "0x3593564c", contractAddress: "", methodId: "0x3593564c", functionName: "execute(bytes commands,bytes[] inputs,uint256 deadline)" });
      const p = pool(out.address, inn.address);
      const logIndex = 100 + (n % 80);
      if (!nativeOut) tokentx.push(transfer(out, me, p, e.outAmount, logIndex));
      tokentx.push(transfer(inn, p, me, e.inAmount, logIndex + 1));
    });
    return { txlist, tokentx };
  });
}

function etherscan(result: unknown) {
  if (Array.isArray(result) && result.length === 0) return HttpResponse.json({ status: "0", message: "No transactions found", result: [] });
  return HttpResponse.json({ status: "1", message: "OK", result });
}

export function evmHandlers() {
  return [
    // Etherscan's proxy module, as ethers' EtherscanProvider posts it (a form body): eth_call only.
    http.post(DEMO_EVM_EXPLORER_URL, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const id = 1;
      if (form.get("module") !== "proxy" || form.get("action") !== "eth_call") {
        return HttpResponse.json({ status: "0", message: "NOTOK", result: "Error! Missing Or invalid Action name" });
      }
      try {
        return HttpResponse.json({ jsonrpc: "2.0", id, result: simulatedEthCall(form.get("to") ?? "", form.get("data") ?? "0x") });
      } catch {
        return HttpResponse.json({ jsonrpc: "2.0", id, error: { code: 3, message: "execution reverted", data: "0x" } });
      }
    }),
    http.get(DEMO_EVM_EXPLORER_URL, async ({ request }) => {
      const q = new URL(request.url).searchParams;
      const address = (q.get("address") ?? "").toLowerCase();
      const action = q.get("action");
      if (q.get("module") !== "account" || (action !== "txlist" && action !== "tokentx")) {
        return HttpResponse.json({ status: "0", message: "NOTOK", result: "Error! Missing Or invalid Action name" });
      }
      if (!/^0x[0-9a-f]{40}$/.test(address)) return HttpResponse.json({ status: "0", message: "NOTOK", result: "Error! Invalid address format" });
      const failure = FAILURES.get(address);
      if (failure === "explorer500") return new HttpResponse("<html><body>500 Internal Server Error</body></html>", { status: 500, headers: { "content-type": "text/html" } });
      if (failure === "timeout") {
        await delay("infinite");
      }
      if (failure === "malformed") return new HttpResponse('{"status":"1","message":"OK","result":[{"blockNumber":"2239', { status: 200, headers: { "content-type": "application/json" } });
      if (failure === "flaky" && action === "txlist" && (q.get("page") ?? "1") === "1") {
        const reads = (flakyReads.get(address) ?? 0) + 1;
        flakyReads.set(address, reads);
        if (reads % 2 === 0) return HttpResponse.json({ status: "0", message: "Service temporarily unavailable" }, { status: 503 });
      }
      const page = Math.max(1, Number(q.get("page")) || 1);
      const offset = Math.min(10_000, Math.max(1, Number(q.get("offset")) || 10_000));
      const rows = demoEvmHistory(address)[action];
      const sorted = q.get("sort") === "desc" ? [...rows].reverse() : rows;
      return etherscan(sorted.slice((page - 1) * offset, page * offset));
    }),
  ];
}

/**
 * A smart-contract wallet (EIP-1271) on the simulated chain: `isValidSignature(hash, signature)`
 * answers the magic value 0x1626ba7e when `signature` is its owner's ECDSA signature of `hash` (a
 * one-owner Safe, in effect). The owner's key is a well-known test key, so tests can sign for it.
 */
export const DEMO_CONTRACT_WALLET = {
  address: getAddress("0x5afe5afe5afe5afe5afe5afe5afe5afe5afe0001"),
  ownerKey: `0x${"0".repeat(62)}0b`,
} as const;
const EIP1271 = new Interface(["function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)"]);

/** eth_call on the simulated chain: the contract wallet's answer, "0x" for any other address (no code). */
export function simulatedEthCall(to: string, data: string): string {
  if (to.toLowerCase() !== DEMO_CONTRACT_WALLET.address.toLowerCase()) return "0x";
  try {
    const [hash, signature] = EIP1271.decodeFunctionData("isValidSignature", data) as unknown as [string, string];
    const ok = recoverAddress(hash, signature) === computeAddress(DEMO_CONTRACT_WALLET.ownerKey);
    return EIP1271.encodeFunctionResult("isValidSignature", [ok ? "0x1626ba7e" : "0xffffffff"]);
  } catch {
    // A malformed call or signature reverts, as the real contract would.
    throw new Error("execution reverted");
  }
}
