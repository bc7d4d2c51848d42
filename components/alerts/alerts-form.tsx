"use client";

import { useState } from "react";
import { callApi, orgPath } from "@/lib/queries/api";
import { hostProfiles } from "@/lib/schemas/hosts";
import { ALERT_EVENT_WORDS, ALERT_EVENTS, alertsUpdate, alertsView, type AlertEvent, type AlertsUpdate, type AlertsView } from "@/lib/schemas/alerts";

interface Member {
  id: string;
  email: string;
  role: string;
}

/**
 * The leaders' Alerts page (SPEC §28): each event on or off, who is mailed (every leader, or the
 * members chosen), whether mail is sent, and the hosts whose problems `host.problems` tells; saved with the same schema the API parses (`alertsUpdate`).
 */
export function AlertsForm({ org, initial, members }: { org: string; initial: AlertsView; members: Member[] }) {
  const [events, setEvents] = useState<Record<AlertEvent, boolean>>(initial.events);
  const [chosen, setChosen] = useState<string[] | null>(initial.recipients.chosen);
  const [email, setEmail] = useState(initial.channels.email);
  const [hosts, setHosts] = useState<string[]>(initial.hosts);
  const [saved, setSaved] = useState<AlertsView>(initial);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    setBusy(true);
    setMessage(null);
    try {
      const body: AlertsUpdate = alertsUpdate.parse({ events, recipients: chosen, channels: { email }, hosts });
      const answer = alertsView.parse(await callApi(`${orgPath(org)}/alerts`, { method: "PATCH", body }));
      setSaved(answer);
      setMessage(`Saved. Mailed to ${answer.recipients.mailed.map((m) => m.email).join(", ") || "no one"}.`);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : "Not saved.");
    } finally {
      setBusy(false);
    }
  }

  const toggleMember = (id: string, on: boolean) => {
    const now = chosen ?? saved.recipients.mailed.map((m) => m.id);
    setChosen(on ? [...new Set([...now, id])] : now.filter((m) => m !== id));
  };

  return (
    <form
      className="mt-6 space-y-6"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <fieldset className="rounded border border-slate-200 bg-white p-4">
        <legend className="px-1 font-medium text-slate-900">Events</legend>
        {ALERT_EVENTS.map((event) => (
          <label key={event} className="mt-2 flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" checked={events[event]} onChange={(e) => setEvents({ ...events, [event]: e.target.checked })} />
            {ALERT_EVENT_WORDS[event]} <code className="text-xs text-slate-500">{event}</code>
          </label>
        ))}
      </fieldset>
      <fieldset className="rounded border border-slate-200 bg-white p-4">
        <legend className="px-1 font-medium text-slate-900">Hosts watched</legend>
        <p className="text-sm text-slate-600">An app that gains a problem on one of these hosts (too many tools, a name it refuses, a description it cuts) is told as <code className="text-xs">host.problems</code>.</p>
        {hostProfiles()
          .filter((host) => host.id !== "theorem")
          .map((host) => (
            <label key={host.id} className="mt-2 flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" checked={hosts.includes(host.id)} onChange={(e) => setHosts(e.target.checked ? [...hosts, host.id] : hosts.filter((id) => id !== host.id))} />
              {host.name}
            </label>
          ))}
      </fieldset>
      <fieldset className="rounded border border-slate-200 bg-white p-4">
        <legend className="px-1 font-medium text-slate-900">Mailed to</legend>
        <label className="mt-2 flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" checked={email} onChange={(e) => setEmail(e.target.checked)} />
          Send alerts by email
        </label>
        <label className="mt-2 flex items-center gap-2 text-sm text-slate-800">
          <input type="radio" name="recipients" checked={chosen === null} onChange={() => setChosen(null)} />
          Every leader
        </label>
        <label className="mt-2 flex items-center gap-2 text-sm text-slate-800">
          <input type="radio" name="recipients" checked={chosen !== null} onChange={() => setChosen(saved.recipients.mailed.map((m) => m.id))} />
          The members chosen:
        </label>
        {chosen !== null && (
          <ul className="ml-6 mt-1 space-y-1">
            {members.map((m) => (
              <li key={m.id}>
                <label className="flex items-center gap-2 text-sm text-slate-800">
                  <input type="checkbox" checked={chosen.includes(m.id)} onChange={(e) => toggleMember(m.id, e.target.checked)} />
                  {m.email} <span className="text-slate-500">({m.role})</span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <div className="flex items-center gap-4">
        <button type="submit" disabled={busy} className="rounded bg-indigo-700 px-4 py-2 text-sm font-medium text-white disabled:opacity-60">
          Save alerts
        </button>
        <p role="status" className="text-sm text-slate-700">
          {message}
        </p>
      </div>
    </form>
  );
}
