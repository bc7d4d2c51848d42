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

describe("the help page's sizes", () => {
  const html = renderToStaticMarkup(createElement(HelpPage));
  const section = html.slice(html.indexOf('id="sizes"'), html.indexOf('id="unavailable"'));

  it("says what 'as listed' and 'as sent' measure, what o200k counts, and what hosts add around it, with sources", () => {
    expect(section).toContain("As listed");
    expect(section).toContain("As sent");
    expect(section).toContain("o200k_base");
    expect(section).toContain("346 tokens");
    expect(section).toContain('href="https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken"');
    expect(html).toContain('href="#sizes"');
  });
});
