import { portfolioApiLoader } from "~/server/grades/portfolio-api.server";
import { tradesFor } from "~/server/grades/portfolio-routes.server";

export const loader = portfolioApiLoader(tradesFor);
