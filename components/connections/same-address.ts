/** An app of a list and where it is connected (its id, when the list has one). */
export interface ConnectedAt {
  id?: string;
  name: string;
  url: string;
}

/** The app of the list already at `url` (the same address, whatever its case or trailing slash), or undefined. */
export function sameAddress<A extends ConnectedAt>(apps: readonly A[], url: string): A | undefined {
  const key = (u: string) => {
    try {
      const parsed = new URL(u.trim());
      return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}${parsed.search}`;
    } catch {
      return u.trim();
    }
  };
  return apps.find((app) => key(app.url) === key(url));
}

/** What is said before connecting an address `name` is already connected at, by URL or from a registry. */
export const twiceQuestion = (name: string) => `${name} is already connected at this address: people would get its tools twice.`;
