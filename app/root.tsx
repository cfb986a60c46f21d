import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { Footer } from "./components/Footer";
import { DemoBanner } from "./components/DemoBanner";
import { Header } from "./components/Header";
import { demoBannerSubjects } from "./server/platform/demo.server";
import { NavProgress } from "./components/NavProgress";
import { errorTitle, RouteErrorPanel } from "./components/RouteError";
import { AppToaster } from "./components/Toaster";
import { VerifyBanner } from "./components/VerifyBanner";
import { ConfirmProvider } from "./components/ConfirmDialog";
import { DeviceProvider } from "./lib/device";
import { DEFAULT_LOCALE, localeFromAcceptLanguage } from "./lib/locale";
import { LocaleProvider } from "./lib/locale-context";
import { deviceClassFromUserAgent } from "./lib/device-class";
import { useNonce } from "./lib/nonce";
import { THEME_COLORS, themeFromCookieHeader } from "./lib/theme";
import { getPublicEnv } from "./server/platform/env.server";
import { currentGradeSummary } from "./server/grades/evaluation.server";
import { getSessionUser } from "./server/http/session.server";
import { toPublicUser } from "./server/accounts/users.server";
import styles from "./styles/app.css";
// The same file app.css's @font-face names (one content hash): preloaded so text does not wait
// for the stylesheet to find it.
import interRegular from "@fontsource/inter/files/inter-latin-400-normal.woff2";

export const links: LinksFunction = () => [
  { rel: "preload", href: interRegular, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export const meta: MetaFunction = ({ error }) =>
  error
    ? [{ title: errorTitle(error) }, { name: "robots", content: "noindex" }]
    : [
        { title: "Grader — Grade Your Trade, Share Your Success" },
        {
          name: "description",
          content: "Link your broker or wallet, get your real trading performance graded, and share it.",
        },
      ];

export async function loader({ request }: LoaderFunctionArgs) {
  const sessionUser = await getSessionUser(request);
  return json({
    user: sessionUser ? toPublicUser(sessionUser) : null,
    grade: sessionUser?.current_evaluation_id ? await currentGradeSummary(sessionUser.id) : null,
    unread: sessionUser?.unread_notifications ?? 0,
    admin: sessionUser?.is_admin ?? false,
    device: deviceClassFromUserAgent(request.headers.get("user-agent")),
    ENV: getPublicEnv(),
    demo: demoBannerSubjects(),
    theme: themeFromCookieHeader(request.headers.get("cookie")),
    // Amounts in the reader's locale (DECISIONS 205), chosen here once so hydration formats alike.
    locale: localeFromAcceptLanguage(request.headers.get("accept-language")),
  });
}

function Document({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    // "system": no attribute, the stylesheet follows prefers-color-scheme.
    <html lang="en" data-theme={data?.theme && data.theme !== "system" ? data.theme : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {data?.theme === "light" || data?.theme === "dark" ? (
          <meta name="theme-color" content={THEME_COLORS[data.theme]} />
        ) : (
          <>
            <meta name="theme-color" media="(prefers-color-scheme: light)" content={THEME_COLORS.light} />
            <meta name="theme-color" media="(prefers-color-scheme: dark)" content={THEME_COLORS.dark} />
          </>
        )}
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <LocaleProvider locale={data?.locale ?? DEFAULT_LOCALE}>
          <DeviceProvider initial={data?.device ?? "pc"}>
            <ConfirmProvider>
              <NavProgress />
              {data?.demo ? <DemoBanner subjects={data.demo} /> : null}
              <Header
                user={data?.user ?? null}
                grade={data?.grade ?? null}
                unread={data?.unread ?? 0}
                admin={data?.admin ?? false}
              />
              {data?.user && !data.user.email_verified ? <VerifyBanner email={data.user.email} /> : null}
              <main id="main" tabIndex={-1}>
                {children}
              </main>
              <Footer supportEmail={data?.ENV.SUPPORT_EMAIL} />
              <AppToaster />
            </ConfirmProvider>
          </DeviceProvider>
        </LocaleProvider>
        <ScrollRestoration nonce={nonce} />
        <script
          nonce={nonce}
          // Browser-safe configuration only (see env.server.ts getPublicEnv).
          dangerouslySetInnerHTML={{
            __html: `window.ENV = ${JSON.stringify(data?.ENV ?? {}).replace(/</g, "\\u003c")}`,
          }}
        />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * The installable app's service worker (public/sw.js: the offline page and push), for a signed-in
 * trader, after the page's load: a visitor's first page loads nothing more than it shows.
 */
function useServiceWorker(signedIn: boolean) {
  useEffect(() => {
    if (!signedIn || !("serviceWorker" in navigator)) return;
    const register = () =>
      void navigator.serviceWorker.register("/sw.js").catch(() => {
        // No worker (a private window, an old browser): the site works as before.
      });
    if (document.readyState === "complete") register();
    else {
      window.addEventListener("load", register, { once: true });
      return () => window.removeEventListener("load", register);
    }
  }, [signedIn]);
}

export default function App() {
  const data = useRouteLoaderData<typeof loader>("root");
  useServiceWorker(Boolean(data?.user));
  return (
    <Document>
      <Outlet />
    </Document>
  );
}

export function ErrorBoundary() {
  return (
    <Document>
      <RouteErrorPanel />
    </Document>
  );
}
