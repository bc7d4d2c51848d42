/** The header every request carries with its socket's address (set by this preload, never by the client). */
export const PEER_HEADER: string;
