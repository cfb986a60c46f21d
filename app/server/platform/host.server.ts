// What server.ts (the Express host) takes from the built app. app/entry.server.tsx re-exports this
// module as `host`, so server.ts reaches it through build/index.js: the routes, the job workers,
// the card route and start-up share one copy of every module and its state (docs/DECISIONS.md 121).
// Add here what server.ts needs; server.ts imports nothing from app/ at run time.
export { createAdmission, DOWNLOAD_RETRY_AFTER_SECONDS, isDownloadPath } from "../http/admission.server";
export { checkBodySize } from "../http/body-limit.server";
export { cspNonce } from "../http/csp-nonce.server";
export { cardAnswer, CARD_ROUTE } from "../grades/card-store.server";
export { sealedSecretsProblem } from "./crypto.server";
export { checkDatabaseUrl, closeDb, dbKind, migrateToLatest, pendingMigrations, pingDb } from "./db.server";
export { isSimulated, simulatedProviders, startupProblems } from "./demo.server";
export { seedDemoCommunityIfEmpty } from "./demo-seed.server";
export { remixRequest, sendResponse } from "../http/remix-express.server";
export { isEmbeddablePath } from "../http/embeddable.server";
export { getEnv } from "./env.server";
export { startJobs, stopJobs } from "./jobs.server";
export { importJobHandlers } from "../linking/linking.server";
export { log } from "./log.server";
export { withRequestContext } from "./request-context.server";
export { logMailMode, mailJob } from "./mail.server";
export {
  metricsAccess,
  registry,
  reportAdmission,
  reportLiveStreams,
  requestDuration,
  routeLabel,
} from "./metrics.server";
export { digestJob } from "../community/notifications.server";
export { pushJob } from "../community/push.server";
export { compactionJob } from "../community/market.server";
export { seasonCloseJob } from "../community/seasons.server";
export { tradeAlertJobHandlers } from "../community/trade-alerts.server";
export { clubLiveJobHandlers } from "../community/club-live.server";
export { engineRegradeJob, startEngineRegrade } from "../grades/engine-regrade.server";
export { currencyRegradeJob } from "../grades/currency-regrade.server";
export { evaluateJob } from "../grades/evaluation-runs.server";
export { isForeignOriginRequest } from "../http/origin-check.server";
export { cachedPageBody, getCachedPage, NONCE_PLACEHOLDER, storeCachedPage } from "../http/page-cache.server";
export { isCacheablePath } from "../http/public-pages.server";
export { flushPageViews, isTrackedPath, trackPageView } from "../community/page-views.server";
export { SESSION_COOKIE } from "../http/session-cookie";
export { deviceClassFromUserAgent, isMobileDevice } from "../../lib/device-class";
export { createLiveStreams, LIVE_PATH } from "../http/live-stream.server";
export { stopLiveListener } from "./live.server";
