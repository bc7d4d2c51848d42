"use client";

import { useState } from "react";
import { callApi, orgPath } from "@/lib/queries/api";
import { webhookView, type WebhookUpdate, type WebhookView } from "@/lib/schemas/alerts";

/**
 * The organisation's webhooks on the Alerts page (SPEC §28, leaders): each hook's address and
 * events, on or off; one switched off (after 24 h of failed deliveries) says since when and why,
 * and a leader switches it on again here (`PATCH …/alerts/webhooks/{id}` `{"on": true}`).
 */
export function WebhooksList({ org, initial }: { org: string; initial: WebhookView[] }) {
  const [hooks, setHooks] = useState(initial);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function switchOn(id: string) {
    setBusy(id);
    setMessage(null);
    try {
      const body: WebhookUpdate = { on: true };
      const answer = webhookView.parse(await callApi(`${orgPath(org)}/alerts/webhooks/${encodeURIComponent(id)}`, { method: "PATCH", body }));
      setHooks((all) => all.map((h) => (h.id === id ? answer : h)));
      setMessage(`The webhook to ${answer.url} is on again.`);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : "Not switched on.");
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="mt-8 rounded border border-slate-200 bg-white p-4" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading" className="font-medium text-slate-900">
        Webhooks
      </h2>
      {hooks.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No webhooks. A leader makes one with POST {orgPath(org)}/alerts/webhooks.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {hooks.map((hook) => (
            <li key={hook.id} className="py-2 text-sm text-slate-800">
              <div className="flex flex-wrap items-center gap-2">
                <code className="break-all">{hook.url}</code>
                <span className={hook.on ? "rounded bg-emerald-100 px-2 text-emerald-900" : "rounded bg-red-100 px-2 text-red-900"}>{hook.on ? "On" : "Off"}</span>
              </div>
              <p className="text-xs text-slate-500">{hook.events.join(", ")}</p>
              {hook.off !== null && (
                <div className="mt-1 flex flex-wrap items-center gap-3">
                  <p className="text-red-900">
                    Off since {new Date(hook.off.at).toLocaleString()}: {hook.off.reason}
                  </p>
                  <button type="button" disabled={busy === hook.id} onClick={() => void switchOn(hook.id)} className="rounded border border-slate-300 px-3 py-1 text-sm disabled:opacity-60">
                    Switch on again
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <p role="status" className="mt-2 text-sm text-slate-700">
        {message}
      </p>
    </section>
  );
}
