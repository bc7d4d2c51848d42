/** How many checks a history request answers by default, and at most. */
export const DEFAULT_HISTORY = 20;
export const MAX_HISTORY = 100;
