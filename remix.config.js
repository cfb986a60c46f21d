import path from "node:path";
import { fileURLToPath } from "node:url";
import { flatRoutes } from "remix-flat-routes";

// Routes (DECISIONS 125): remix-flat-routes reads app/routes, where each tree of PRODUCT.md is a group
// folder named `_<tree>+`. A file keeps its whole flat name inside its group
// (`_profile+/profile.stats.tsx` is /profile/stats, inside `_profile+/profile.tsx`), and its route id
// is that name, as if the file were at the top (`routes/profile.stats`): moving a file into or out
// of a group changes neither its URL nor its id.
const ignoredRouteFiles = ["**/.*", "**/*.test.{ts,tsx}"];

/** Defines each route with the id its file name would have at the top of app/routes. */
function withFlatIds(defineRoutes) {
  return (callback) =>
    defineRoutes((route) =>
      callback((routePath, file, optionsOrChildren, children) => {
        const id = `routes/${path.basename(file).replace(/\.[a-z0-9]+$/i, "")}`;
        return typeof optionsOrChildren === "function"
          ? route(routePath, file, { id }, optionsOrChildren)
          : route(routePath, file, { ...optionsOrChildren, id }, children);
      }),
    );
}

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Remix's own convention takes nothing: remix-flat-routes defines every route.
  ignoredRouteFiles: ["**/*"],
  routes: (defineRoutes) =>
    flatRoutes("routes", withFlatIds(defineRoutes), {
      appDir: fileURLToPath(new URL("app", import.meta.url)),
      ignoredRouteFiles,
    }),
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Server-only packages stay external: they are resolved from node_modules at run time.
  serverDependenciesToBundle: [],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
