import { useNavigate } from "@remix-run/react";
import bs58 from "bs58";
import { useCallback, useState } from "react";
import { notify } from "~/components/Toaster";

/**
 * Browser side of wallet linking: find the wallet extension, get the address, have the wallet sign
 * the server's one-time sign-in message, and send the proof (docs/API.md, "Wallets").
 *   EVM: EIP-6963 provider discovery (window.ethereum as fallback), eth_requestAccounts, personal_sign.
 *   Solana: Phantom's window.phantom.solana (or window.solana), connect, signMessage.
 * Nothing here holds a key; signing happens in the extension. The one exception is the demo wallet
 * (demo mode only, `linkDemoWallet`): a throwaway key made in this browser signs the same message.
 */
export type WalletChain = "evm" | "solana";

export type Eip1193Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };
export type Eip6963ProviderDetail = {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193Provider;
};
export type PhantomProvider = {
  isPhantom?: boolean;
  connect(opts?: { onlyIfTrusted?: boolean }): Promise<{ publicKey: { toString(): string } }>;
  signMessage(
    message: Uint8Array,
    display?: "utf8" | "hex",
  ): Promise<{ signature: Uint8Array | number[]; publicKey?: unknown }>;
};

type WalletWindow = Window & {
  ethereum?: Eip1193Provider & { isMetaMask?: boolean };
  phantom?: { solana?: PhantomProvider };
  solana?: PhantomProvider;
};

/** EIP-6963: ask every injected wallet to announce itself; wait briefly; fall back to window.ethereum. */
export async function discoverEvmProviders(waitMs = 300): Promise<Eip6963ProviderDetail[]> {
  const found = new Map<string, Eip6963ProviderDetail>();
  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<Eip6963ProviderDetail>).detail;
    if (detail?.info?.uuid && detail.provider) found.set(detail.info.uuid, detail);
  };
  window.addEventListener("eip6963:announceProvider", onAnnounce);
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  await new Promise((r) => setTimeout(r, waitMs));
  window.removeEventListener("eip6963:announceProvider", onAnnounce);
  const list = [...found.values()];
  const legacy = (window as WalletWindow).ethereum;
  if (!list.length && legacy && typeof legacy.request === "function") {
    list.push({
      info: {
        uuid: "window.ethereum",
        name: legacy.isMetaMask ? "MetaMask" : "Browser wallet",
        icon: "",
        rdns: legacy.isMetaMask ? "io.metamask" : "",
      },
      provider: legacy,
    });
  }
  return list;
}

/** MetaMask first when several wallets announce themselves. */
export function pickEvmProvider(list: Eip6963ProviderDetail[]): Eip6963ProviderDetail | null {
  return list.find((p) => p.info.rdns === "io.metamask") ?? list[0] ?? null;
}

export function findPhantom(): PhantomProvider | null {
  const w = window as WalletWindow;
  const p = w.phantom?.solana ?? (w.solana?.isPhantom ? w.solana : null);
  return p && typeof p.connect === "function" && typeof p.signMessage === "function" ? p : null;
}

function utf8Hex(text: string): string {
  return `0x${[...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export type LinkOutcome =
  { ok: true; data: unknown } | { ok: false; code?: number; message: string; cancelled?: boolean };

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let json: Record<string, unknown> = {};
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  return { status: res.status, json };
}

function errorMessage(json: Record<string, unknown>, fallback: string): string {
  const error = json.error as { message?: unknown } | undefined;
  return typeof error?.message === "string" ? error.message : fallback;
}

function isUserRejection(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === 4001 || (typeof e?.message === "string" && /reject|denied|cancel/i.test(e.message));
}

/**
 * nonce → sign → wallet. `address` as the wallet gave it; EVM addresses are sent without the 0x
 * prefix (PRODUCT §5), which the server accepts in both forms.
 */
export async function proveAndLink(
  chain: WalletChain,
  address: string,
  sign: (message: string) => Promise<string>,
): Promise<LinkOutcome> {
  const wallet_address = chain === "evm" ? address.replace(/^0x/i, "") : address;
  const nonce = await post(`/api/${chain}/nonce`, { wallet_address });
  const message = (nonce.json.data as { message?: unknown } | undefined)?.message;
  if (nonce.status !== 200 || typeof message !== "string")
    return { ok: false, message: errorMessage(nonce.json, "The sign-in message could not be prepared.") };
  let signature: string;
  try {
    signature = await sign(message);
  } catch (error) {
    return {
      ok: false,
      cancelled: isUserRejection(error),
      message: isUserRejection(error)
        ? "You cancelled the signature in your wallet."
        : "Your wallet could not sign the message.",
    };
  }
  const linked = await post(`/api/${chain}/wallet`, { wallet_address, message, signature });
  if (linked.json.code === 406)
    return { ok: false, code: 406, message: errorMessage(linked.json, "This account is linked to another user.") };
  if (linked.status !== 200 && linked.status !== 201)
    return { ok: false, message: errorMessage(linked.json, "The wallet could not be linked.") };
  return { ok: true, data: linked.json.data };
}

export async function linkEvmWallet(provider: Eip1193Provider): Promise<LinkOutcome> {
  let address: string;
  try {
    const accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
    if (!accounts?.[0]) return { ok: false, message: "Your wallet shared no account." };
    address = accounts[0];
  } catch (error) {
    return {
      ok: false,
      cancelled: isUserRejection(error),
      message: isUserRejection(error)
        ? "You declined the connection in your wallet."
        : "Your wallet could not connect.",
    };
  }
  return proveAndLink("evm", address, async (message) =>
    String(await provider.request({ method: "personal_sign", params: [utf8Hex(message), address] })),
  );
}

export async function linkSolanaWallet(provider: PhantomProvider): Promise<LinkOutcome> {
  let address: string;
  try {
    address = (await provider.connect()).publicKey.toString();
  } catch (error) {
    return {
      ok: false,
      cancelled: isUserRejection(error),
      message: isUserRejection(error) ? "You declined the connection in Phantom." : "Phantom could not connect.",
    };
  }
  return proveAndLink("solana", address, async (message) => {
    const { signature } = await provider.signMessage(new TextEncoder().encode(message), "utf8");
    return bs58.encode(Uint8Array.from(signature));
  });
}

/** Whether a wallet extension for the chain is present (the link pages offer a demo wallet when not). */
export async function hasWalletExtension(chain: WalletChain): Promise<boolean> {
  return chain === "evm" ? pickEvmProvider(await discoverEvmProviders()) !== null : findPhantom() !== null;
}

const DEMO_KEY: Record<WalletChain, string> = { evm: "grader:demo-wallet:evm", solana: "grader:demo-wallet:solana" };

/**
 * Demo mode: links a wallet whose key is made here, in the browser (ethers / tweetnacl), and kept in
 * localStorage so the same demo wallet comes back. It goes through the same nonce → signature →
 * link calls as MetaMask and Phantom; the key is worthless (the history is the simulator's). The
 * signing libraries load only when asked for.
 */
export async function linkDemoWallet(chain: WalletChain): Promise<LinkOutcome> {
  const stored = (() => {
    try {
      return window.localStorage.getItem(DEMO_KEY[chain]);
    } catch {
      return null;
    }
  })();
  const keep = (value: string) => {
    try {
      window.localStorage.setItem(DEMO_KEY[chain], value);
    } catch {
      /* private mode: a new demo wallet next time */
    }
  };
  if (chain === "evm") {
    const { Wallet } = await import("ethers/wallet");
    const wallet = stored ? new Wallet(stored) : Wallet.createRandom();
    keep(wallet.privateKey);
    return proveAndLink("evm", wallet.address, (message) => wallet.signMessage(message));
  }
  const nacl = (await import("tweetnacl")).default;
  const keys = stored ? nacl.sign.keyPair.fromSecretKey(bs58.decode(stored)) : nacl.sign.keyPair();
  keep(bs58.encode(keys.secretKey));
  return proveAndLink("solana", bs58.encode(keys.publicKey), async (message) =>
    bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), keys.secretKey)),
  );
}

// ---- the link pages' flow (app/routes/_link+/link.evm.tsx, link.solana.tsx) ------------------------------

export type LinkFlowState = {
  status: "idle" | "working" | "no-wallet" | "failed" | "conflict" | "done";
  detail: string | null;
};

export const ADD_FAILED = "Failed to add the account!";
export const ADD_SUCCESS = "Added the account successfully!";
const NO_WALLET: Record<WalletChain, string> = {
  evm: "No Ethereum wallet was detected in this browser. Install or enable MetaMask (metamask.io), reload this page and try again.",
  solana:
    "Phantom was not detected in this browser. Install or enable Phantom (phantom.com), reload this page and try again.",
};

/** Runs the whole flow, reporting through `notify` (toasts) and the returned state. */
export function useWalletLinkFlow(chain: WalletChain) {
  const navigate = useNavigate();
  const [state, setState] = useState<LinkFlowState>({ status: "idle", detail: null });
  const finish = useCallback(
    (outcome: LinkOutcome) => {
      if (outcome.ok) {
        notify.success(ADD_SUCCESS);
        setState({ status: "done", detail: null });
        navigate("/profile/account?added=1#imports");
        return;
      }
      if (outcome.code === 406) {
        notify.info(outcome.message);
        return setState({ status: "conflict", detail: outcome.message });
      }
      notify.error(ADD_FAILED);
      setState({ status: "failed", detail: outcome.message });
    },
    [navigate],
  );
  const startDemo = useCallback(async () => {
    setState({ status: "working", detail: null });
    finish(await linkDemoWallet(chain));
  }, [chain, finish]);
  const start = useCallback(async () => {
    setState({ status: "working", detail: null });
    let outcome: LinkOutcome;
    if (chain === "evm") {
      const chosen = pickEvmProvider(await discoverEvmProviders());
      if (!chosen) {
        console.info("wallet not detected: no EIP-6963 provider and no window.ethereum");
        notify.warning(NO_WALLET.evm);
        return setState({ status: "no-wallet", detail: NO_WALLET.evm });
      }
      outcome = await linkEvmWallet(chosen.provider);
    } else {
      const phantom = findPhantom();
      if (!phantom) {
        console.info("wallet not detected: no window.phantom.solana");
        notify.warning(NO_WALLET.solana);
        return setState({ status: "no-wallet", detail: NO_WALLET.solana });
      }
      outcome = await linkSolanaWallet(phantom);
    }
    finish(outcome);
  }, [chain, finish]);
  return { state, start, startDemo };
}
