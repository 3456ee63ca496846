/** Limits the API and the stores share, so a route and the store it calls agree on them. */

/** The most items one page of a listing holds (`limit` on GET /v1/jobs and the stores' lists). */
export const MAX_PAGE_SIZE = 100;
