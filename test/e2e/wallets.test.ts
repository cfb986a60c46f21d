import { EVM_FAILURE_KEYS } from "../mocks/evm";
import bs58 from "bs58";
import { getBytes, Wallet } from "ethers";
import type { Browser, BrowserContext, Page } from "playwright-core";
import nacl from "tweetnacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGE_406 } from "../../app/server/linking/imports.server";
import { launchBrowser, seriousViolations, sessionContext, skipE2E } from "../support/browser";
import { baseUrl, signUp, waitForImports } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Linking wallets in a real browser. The wallet extensions are played by injected providers whose
// signing is bridged to Node (page.exposeFunction) where a real key signs: an ethers wallet behind
// an EIP-6963 / window.ethereum provider, a tweetnacl key pair behind window.phantom.solana. The
// server verifies those signatures exactly as it would MetaMask's and Phantom's.

// Scoped to the page content (the shared header is tested by routes.test.ts).

async function injectEvmWallet(
  page: Page,
  wallet: Pick<Wallet, "address" | "signMessage">,
  mode: "eip6963" | "window.ethereum",
) {
  const signed: string[] = [];
  await page.exposeFunction("__testPersonalSign", async (hex: string, address: string) => {
    if (address.toLowerCase() !== wallet.address.toLowerCase()) throw new Error("personal_sign for another account");
    const bytes = getBytes(hex);
    signed.push(new TextDecoder().decode(bytes));
    return wallet.signMessage(bytes);
  });
  await page.addInitScript(
    ({ address, mode }) => {
      const provider = {
        isMetaMask: true,
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          if (method === "eth_requestAccounts" || method === "eth_accounts") return [address];
          if (method === "personal_sign")
            return (
              window as unknown as { __testPersonalSign: (h: unknown, a: unknown) => Promise<string> }
            ).__testPersonalSign(params?.[0], params?.[1]);
          throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 });
        },
      };
      if (mode === "window.ethereum") {
        (window as unknown as { ethereum: unknown }).ethereum = provider;
        return;
      }
      const announce = () =>
        window.dispatchEvent(
          new CustomEvent("eip6963:announceProvider", {
            detail: Object.freeze({
              info: {
                uuid: "7a3b2c1d-test",
                name: "MetaMask (test)",
                icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
                rdns: "io.metamask",
              },
              provider,
            }),
          }),
        );
      window.addEventListener("eip6963:requestProvider", announce);
      announce();
    },
    // MetaMask hands out lower-case addresses.
    { address: wallet.address.toLowerCase(), mode },
  );
  return signed;
}

async function injectPhantom(page: Page, keys: nacl.SignKeyPair) {
  const signed: string[] = [];
  await page.exposeFunction("__testPhantomSign", (bytes: number[]) => {
    const message = Uint8Array.from(bytes);
    signed.push(new TextDecoder().decode(message));
    return Array.from(nacl.sign.detached(message, keys.secretKey));
  });
  await page.addInitScript((publicKey) => {
    const key = { toString: () => publicKey, toBase58: () => publicKey };
    const solana = {
      isPhantom: true,
      publicKey: null as unknown,
      connect: async () => {
        solana.publicKey = key;
        return { publicKey: key };
      },
      signMessage: async (message: Uint8Array) => {
        const sig = await (
          window as unknown as { __testPhantomSign: (b: number[]) => Promise<number[]> }
        ).__testPhantomSign(Array.from(message));
        return { signature: Uint8Array.from(sig), publicKey: key };
      },
    };
    (window as unknown as { phantom: unknown }).phantom = { solana };
  }, bs58.encode(keys.publicKey));
  return signed;
}

describe.skipIf(skipE2E)("linking wallets in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function signedIn(
    opts: { js?: boolean; width?: number; cookie?: string } = {},
  ): Promise<{ ctx: BrowserContext; page: Page; cookie: string; errors: string[] }> {
    const cookie = opts.cookie ?? (await signUp()).cookie;
    const ctx = await sessionContext(browser, cookie, {
      javaScriptEnabled: opts.js ?? true,
      viewport: { width: opts.width ?? 1280, height: 800 },
      reducedMotion: "reduce",
    });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    return { ctx, page, cookie, errors };
  }

  it("links a MetaMask wallet found by EIP-6963 discovery, with a real signature", async () => {
    const wallet = Wallet.createRandom();
    const { ctx, page, errors } = await signedIn();
    const signed = await injectEvmWallet(page, wallet, "eip6963");
    await page.goto(baseUrl() + "/link/evm");
    expect(await page.locator("h1").textContent()).toBe("Link a MetaMask wallet");
    expect(await seriousViolations(page)).toEqual([]);
    const button = page.getByRole("button", { name: "Connect MetaMask" });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    await page.waitForURL(/\/profile\/account\?added=1#imports$/, { timeout: 30_000 });
    expect(signed).toHaveLength(1);
    expect(signed[0]).toMatch(/^localhost:3000 wants you to sign in with your Ethereum account:\n0x[0-9a-fA-F]{40}\n/);
    expect(signed[0]!.split("\n")[1]).toBe(wallet.address);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("without an extension, in demo mode, links a demo wallet whose key is made in the browser, and shows its import to the grade", async () => {
    const { ctx, page, cookie, errors } = await signedIn();
    await page.goto(baseUrl() + "/link/evm");
    const demo = page.getByRole("button", { name: "Use a demo wallet" });
    await demo.waitFor({ timeout: 10_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await demo.click();
    await page.waitForURL(/\/profile\/account\?added=1#imports$/, { timeout: 30_000 });
    // The key stays in this browser; the server linked its address through the real SIWE path.
    const key = await page.evaluate(() => window.localStorage.getItem("grader:demo-wallet:evm"));
    const address = new Wallet(key!).address;
    await page.locator('[data-testid="import-progress"]').first().waitFor({ timeout: 30_000 });
    // The page follows the import (JavaScript on) until it is done.
    await page.locator('[data-testid="import-progress"][data-state="done"]').waitFor({ timeout: 90_000 });
    const [imported] = await waitForImports(cookie);
    expect(imported).toMatchObject({ state: "done" });
    expect(imported!.trades_added).toBeGreaterThan(20);
    expect(await page.getByText(`MetaMask ${address.slice(0, 6)}…${address.slice(-4)}`).count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("links a demo Solana wallet (tweetnacl in the browser), never offers the demo wallet beside an extension, and says what needs JavaScript", async () => {
    const sol = await signedIn();
    await sol.page.goto(baseUrl() + "/link/solana");
    await sol.page.getByRole("button", { name: "Use a demo wallet" }).click({ timeout: 10_000 });
    await sol.page.waitForURL(/\/profile\/account\?added=1#imports$/, { timeout: 30_000 });
    const secret = await sol.page.evaluate(() => window.localStorage.getItem("grader:demo-wallet:solana"));
    expect(bs58.decode(secret!)).toHaveLength(64);
    await sol.ctx.close();

    const withExtension = await signedIn();
    await injectEvmWallet(withExtension.page, Wallet.createRandom(), "eip6963");
    await withExtension.page.goto(baseUrl() + "/link/evm");
    await expect
      .poll(() => withExtension.page.getByRole("button", { name: "Connect MetaMask" }).isEnabled())
      .toBe(true);
    await new Promise((r) => setTimeout(r, 800)); // past the extension discovery
    expect(await withExtension.page.getByRole("button", { name: "Use a demo wallet" }).count()).toBe(0);
    await withExtension.ctx.close();

    // Without JavaScript nothing can sign: the page says so, and offers no button that would do nothing.
    const noJs = await signedIn({ js: false });
    await noJs.page.goto(baseUrl() + "/link/evm");
    expect(
      await noJs.page
        .getByText(/Linking a wallet needs JavaScript.*or, on this demo server, by a demo wallet in your browser/)
        .isVisible(),
    ).toBe(true);
    expect(await noJs.page.getByRole("button", { name: "Use a demo wallet" }).count()).toBe(0);
    await noJs.ctx.close();
  });

  it("links a Phantom wallet, and another user then gets the product's 406 message", async () => {
    const keys = nacl.sign.keyPair();
    const first = await signedIn();
    const signed = await injectPhantom(first.page, keys);
    await first.page.goto(baseUrl() + "/link/solana");
    const button = first.page.getByRole("button", { name: "Connect Phantom" });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    await first.page.waitForURL(/\/profile\/account\?added=1#imports$/, { timeout: 30_000 });
    expect(signed[0]).toMatch(/^localhost:3000 wants you to sign in with your Solana account:\n/);
    expect(first.errors).toEqual([]);
    await first.ctx.close();

    const second = await signedIn();
    await injectPhantom(second.page, keys);
    await second.page.goto(baseUrl() + "/link/solana");
    const again = second.page.getByRole("button", { name: "Connect Phantom" });
    await expect.poll(() => again.isEnabled()).toBe(true);
    await again.click();
    await expect.poll(() => second.page.getByTestId("wallet-status").textContent()).toBe(MESSAGE_406);
    expect(second.page.url()).toMatch(/\/link\/solana$/);
    await second.ctx.close();
  });

  it("uses window.ethereum when no wallet announces itself, and shows a failed import plainly", async () => {
    // A wallet whose history the explorer simulator fails to serve (HTTP 500).
    const failing = new Wallet(EVM_FAILURE_KEYS.explorer500Browser);
    const { ctx, page } = await signedIn();
    await injectEvmWallet(page, failing, "window.ethereum");
    await page.goto(baseUrl() + "/link/evm");
    const button = page.getByRole("button", { name: "Connect MetaMask" });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    // The link succeeds at once; its import job retries the explorer, then ends failed, and the
    // account page (updating itself) says why.
    await page.waitForURL(/\/profile\/account\?added=1#imports$/, { timeout: 30_000 });
    await page.locator('[data-testid="import-progress"][data-state="failed"]').waitFor({ timeout: 30_000 });
    // The state comes with the import's own row; the retry button with the page's data, reloaded after it.
    await expect
      .poll(() =>
        page
          .getByRole("alert")
          .filter({ hasText: /HTTP 500/ })
          .count(),
      )
      .toBe(1);
    await expect.poll(() => page.getByRole("button", { name: "Try the import again" }).count()).toBe(1);
    await ctx.close();
  });

  it("says so when no wallet is installed", async () => {
    for (const [path, name, text] of [
      ["/link/evm", "Connect MetaMask", /No Ethereum wallet was detected/],
      ["/link/solana", "Connect Phantom", /Phantom was not detected/],
    ] as const) {
      const { ctx, page } = await signedIn();
      await page.goto(baseUrl() + path);
      const button = page.getByRole("button", { name });
      await expect.poll(() => button.isEnabled()).toBe(true);
      await button.click();
      await expect.poll(() => page.getByTestId("wallet-status").textContent()).toMatch(text);
      await ctx.close();
    }
  });

  it("is desktop only on mobile and pad, and explains that JavaScript is needed", async () => {
    for (const width of [390, 900]) {
      const { ctx, page } = await signedIn({ width });
      await page.goto(baseUrl() + "/link/evm");
      await expect.poll(() => page.getByText("Desktop only", { exact: true }).count()).toBe(1);
      expect(await page.getByRole("button", { name: "Connect MetaMask" }).isDisabled()).toBe(true);
      await ctx.close();
    }
    const { ctx, page } = await signedIn({ js: false });
    const res = await page.goto(baseUrl() + "/link/solana");
    expect(res?.status()).toBe(200);
    expect(await page.getByText(/Linking a wallet needs JavaScript/).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Connect Phantom" }).isDisabled()).toBe(true);
    await ctx.close();
  });

  it("sends a visitor who is not signed in to /signin", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(baseUrl() + "/link/evm");
    expect(new URL(page.url()).pathname).toBe("/signin");
    await ctx.close();
  });
});

describe.skipIf(skipE2E)("the demo wallet on a server with a real explorer", () => {
  let browser: Browser;
  let server: RunningServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    server = await startServer({ EVM_EXPLORER_URL: "https://explorer.invalid/api", ...(await ownDatabase()) });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("is not offered", async () => {
    const { cookie } = await signUp({ base: server.url });
    const ctx = await sessionContext(browser, cookie, {}, server.url);
    const page = await ctx.newPage();
    await page.goto(server.url + "/link/evm");
    await expect.poll(() => page.getByRole("button", { name: "Connect MetaMask" }).isEnabled()).toBe(true);
    await new Promise((r) => setTimeout(r, 800));
    expect(await page.getByRole("button", { name: "Use a demo wallet" }).count()).toBe(0);
    expect(await page.getByText(/no explorer is configured on this server/).count()).toBe(0);
    await ctx.close();
  });
});
