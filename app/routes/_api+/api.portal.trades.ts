import { portfolioApiLoader } from "~/server/portfolio-api.server";
import { tradesFor } from "~/server/portfolio-routes.server";

export const loader = portfolioApiLoader(tradesFor);
