import { portfolioApiLoader } from "~/web/portfolio-api.server";
import { holdingsFor } from "~/web/portfolio-routes.server";

export const loader = portfolioApiLoader(holdingsFor);
