import { portfolioApiLoader } from "~/server/grades/portfolio-api.server";
import { holdingsFor } from "~/server/grades/portfolio-routes.server";

export const loader = portfolioApiLoader(holdingsFor);
