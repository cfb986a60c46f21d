/**
 * A refused request as a service returns it: the HTTP status the route answers with and the
 * message the person sees. (A service whose caller words the refusal itself returns a named
 * `reason` instead: sign-in, points, billing, stars.)
 */
export type Refusal<S extends number = 400> = { ok: false; status: S; message: string };
