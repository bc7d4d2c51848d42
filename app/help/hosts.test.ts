import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { hostProfiles } from "@/lib/schemas/hosts";
import HelpPage from "./page";

describe("the help page's other hosts", () => {
  const html = renderToStaticMarkup(createElement(HelpPage));
  const section = html.slice(html.indexOf('id="hosts"'));

  it.each(hostProfiles().map((h) => [h.id, h] as const))("lists %s with its source and the date it was checked", (_, host) => {
    expect(section).toContain(`>${host.name} <`);
    const url = /^https:\/\/\S+/.exec(host.source)?.[0];
    if (url !== undefined) expect(section).toContain(`href="${url.replace(/&/g, "&amp;")}"`);
    else expect(section).toContain(host.source.replace(/'/g, "&#x27;"));
    expect(section).toContain(`checked ${host.checked}`);
  });
});
