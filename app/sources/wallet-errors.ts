/** A wallet history provider (explorer, RPC) failed; the message is safe to show to the user. */
export class WalletProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WalletProviderError";
  }
}

/** fetch with a time limit; failures become WalletProviderError with a plain message. */
export async function fetchWithTimeout(
  provider: string,
  input: string | URL,
  init: RequestInit,
  timeoutMs: number,
): Promise<Response> {
  try {
    return await fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError")
      throw new WalletProviderError(`${provider} did not answer within ${Math.round(timeoutMs / 1000)} s.`);
    throw new WalletProviderError(`${provider} could not be reached.`);
  }
}

/** Reads a JSON body within the same time limit; a malformed body is a WalletProviderError. */
export async function readJson(provider: string, res: Response): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch (error) {
    const name = (error as Error)?.name;
    throw new WalletProviderError(
      name === "TimeoutError" || name === "AbortError"
        ? `${provider} did not finish answering in time.`
        : `${provider} broke off its answer.`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new WalletProviderError(`${provider} answered with malformed JSON.`);
  }
}
