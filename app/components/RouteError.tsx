import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { NotFound } from "./NotFound";

/**
 * The page title of a failed route, read by the root's meta (a route whose loader throws never
 * gets its own meta: the boundary's route names the page).
 */
export function errorTitle(error: unknown): string {
  if (isRouteErrorResponse(error) && error.status === 404) return "Nothing to see here! · Grader";
  if (isRouteErrorResponse(error) && error.status >= 400 && error.status < 500)
    return "We couldn’t handle that request · Grader";
  return "Something went wrong · Grader";
}

/**
 * What a failed route says, wherever its boundary is: the root's (the whole page) or a layout's
 * (in place of the child, so the header and the layout's tabs stay).
 */
export function RouteErrorPanel() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status >= 400 && error.status < 500) {
    // A request we refuse (bad input, too many attempts): say why; trying again will not help.
    const data: unknown = error.data;
    const reason =
      typeof data === "string"
        ? data
        : typeof (data as { message?: unknown })?.message === "string"
          ? (data as { message: string }).message
          : error.statusText;
    return (
      <div className="page narrow">
        <h1>We couldn’t handle that request</h1>
        <p role="alert">{reason}</p>
        <p>
          <a href="/">Go to the home page</a>
        </p>
      </div>
    );
  }
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong.";
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="page narrow">
      <h1>Something went wrong</h1>
      <p>{message} Please try again in a moment.</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </div>
  );
}
