// Shared by server.ts (page cache bypass) and the session module.
export const SESSION_COOKIE = "grader_session";
