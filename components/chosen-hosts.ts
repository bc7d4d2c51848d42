"use client";

import { useMemo, useSyncExternalStore } from "react";
import { CHOSEN_HOSTS_KEY, readChosenHosts } from "@/components/host-words";

// The chosen hosts live in localStorage; every part of the page that shows them (the host panel, the
// tools table's columns) and other tabs, through `storage`, follow one value.
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}
function storedText(): string {
  try {
    return window.localStorage.getItem(CHOSEN_HOSTS_KEY) ?? "";
  } catch {
    return ""; // storage refused (a private window): nothing is remembered
  }
}

/** The hosts chosen in this browser (SPEC §22), and how to change them. */
export function useChosenHosts(): [string[], (ids: string[]) => void] {
  const raw = useSyncExternalStore(subscribe, storedText, () => "");
  const chosen = useMemo(() => readChosenHosts(raw), [raw]);
  const choose = (ids: string[]) => {
    try {
      window.localStorage.setItem(CHOSEN_HOSTS_KEY, JSON.stringify(readChosenHosts(JSON.stringify(ids))));
    } catch {
      // not remembered; the page still shows nothing new, which the picker's state says
    }
    listeners.forEach((listener) => listener());
  };
  return [chosen, choose];
}
