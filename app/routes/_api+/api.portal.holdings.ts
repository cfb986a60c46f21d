import { portfolioApiLoader } from "~/server/portfolio-api.server";
import { holdingsFor } from "~/server/portfolio-routes.server";

export const loader = portfolioApiLoader(holdingsFor);
