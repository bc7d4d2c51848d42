/** How many checks a history request answers by default, and at most. */
export const DEFAULT_HISTORY = 20;
export const MAX_HISTORY = 100;

/** Every check reads all of an organisation's apps, so their number bounds what one request costs. */
export const MAX_APPS_PER_ORG = 100;
