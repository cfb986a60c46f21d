import { portfolioApiLoader } from "~/web/portfolio-api.server";
import { tradesFor } from "~/web/portfolio-routes.server";

export const loader = portfolioApiLoader(tradesFor);
