"use client";

import NextLink from "next/link";
import { useState, type ComponentProps, type FocusEvent, type MouseEvent, type TouchEvent } from "react";

/**
 * The dashboard's link (next/link is used here only; eslint.config.mjs says so): its page is fetched
 * ahead once the person shows they may follow it (the pointer on it, focus, a touch), not as soon as
 * it is in view. Every page of the dashboard is a signed-in page the server renders, and Next's
 * default fetches each link in view: the navigation alone holds up to thirteen, so every page view
 * cost the server a dozen more renders nobody asked for (Next's documented hover-triggered prefetch).
 */
export function Link({ onMouseEnter, onFocus, onTouchStart, ...props }: Omit<ComponentProps<typeof NextLink>, "prefetch">) {
  const [intent, setIntent] = useState(false);
  return (
    <NextLink
      {...props}
      prefetch={intent ? null : false}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        setIntent(true);
        onMouseEnter?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        setIntent(true);
        onFocus?.(event);
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        setIntent(true);
        onTouchStart?.(event);
      }}
    />
  );
}
