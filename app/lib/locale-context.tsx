import { createContext, useContext } from "react";
import { DEFAULT_LOCALE } from "./locale";

// Set once by the root (from its loader's `locale`), so a server render and its hydration agree;
// without a provider (a unit test's render) the default.
const LocaleContext = createContext(DEFAULT_LOCALE);

export function LocaleProvider({ locale, children }: { locale: string; children: React.ReactNode }) {
  return <LocaleContext.Provider value={locale}>{children}</LocaleContext.Provider>;
}

/** The trader's locale for formatMoney and formatNumber (DECISIONS 205). */
export const useLocale = () => useContext(LocaleContext);
