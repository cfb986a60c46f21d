import { createContext, useContext } from "react";

// The CSP nonce of this response, for <Scripts>, <ScrollRestoration> and our own inline scripts.
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
