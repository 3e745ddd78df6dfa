/** A 401 nothing could renew (Section 5): the reason follows in parentheses. */
export const UNRENEWABLE_TOKEN = "the server refused the access token and nothing can renew it";
