"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useId, useState } from "react";
import { Alert, errorMessage } from "@/components/ui/alert";
import { TableHead } from "@/components/ui/table";
import { ConfirmChangeButton } from "@/components/confirm-change";
import { accessWords, groupNames, groupToolNames } from "@/components/groups/group-words";
import { plural } from "@/lib/plural";
import { groupsQuery } from "@/lib/queries/groups";
import { appSettingsMutation, appSettingsQuery } from "@/lib/queries/orgs";
import { toolSetting, type AppCheck, type ToolSetting } from "@/lib/schemas/check";
import type { AppAccess, Group } from "@/lib/schemas/groups";
import type { OrgAppSettings } from "@/lib/schemas/settings";
import { SETTING_WORDS } from "@/lib/schemas/settings";

/**
 * Who has an org app and what each group may do with its tools (SPEC §23), on the app's page:
 * everyone sees both; a leader (`canManage`) changes them.
 */
export function AppGroupsSettings({ org, appId, appName, check, canManage }: { org: string; appId: string; appName: string; check: AppCheck | null; canManage: boolean }) {
  const id = useId();
  const settings = useQuery(appSettingsQuery(org, appId));
  const groups = useQuery(groupsQuery(org));
  const membersHref = `/orgs/${encodeURIComponent(org)}/members`;

  let body;
  if (settings.isPending || groups.isPending) body = <p className="text-slate-700">Loading who has this app…</p>;
  else if (settings.isError) body = <Alert inline>{errorMessage(settings.error, "The app's settings could not be loaded.")}</Alert>;
  else if (groups.isError) body = <Alert inline>{errorMessage(groups.error, "The groups could not be loaded.")}</Alert>;
  else {
    // An org app's answer always has both; the schema, shared with personal apps, leaves them optional.
    const orgApp: OrgAppSettings = { ...settings.data, access: settings.data.access ?? "everyone", groups: settings.data.groups ?? [] };
    body = (
      <>
        <AccessSetting org={org} appId={appId} appName={appName} settings={orgApp} groups={groups.data.groups} canManage={canManage} />
        <GroupToolSettings org={org} appId={appId} check={check} settings={orgApp} groups={groups.data.groups} canManage={canManage} />
        {groups.data.groups.length === 0 && (
          <p className="text-slate-700">
            There are no groups yet{canManage ? (
              <>
                : make them on{" "}
                <Link href={membersHref} className="text-indigo-800 underline underline-offset-2">
                  Members
                </Link>{" "}
                to give this app to some people only, or to set its tools for them
              </>
            ) : null}
            .
          </p>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <h2 id={`${id}-title`} className="font-medium text-slate-900">
        Who has this app, and its tools per group
      </h2>
      {body}
    </section>
  );
}

function AccessSetting({ org, appId, appName, settings, groups, canManage }: { org: string; appId: string; appName: string; settings: OrgAppSettings; groups: Group[]; canManage: boolean }) {
  const id = useId();
  const client = useQueryClient();
  const save = useMutation(appSettingsMutation(client, org, appId));
  const saved = settings.access === "everyone" ? null : settings.access.groups.map((g) => g.id);
  // null: everyone; else the groups ticked (possibly none yet, which the API refuses with its own words).
  const [chosen, setChosen] = useState<readonly string[] | null>(saved);
  const changed = JSON.stringify(chosen === null ? null : [...chosen].sort()) !== JSON.stringify(saved === null ? null : [...saved].sort());
  const access: AppAccess = chosen === null ? "everyone" : { groups: [...chosen] };

  return (
    <div className="space-y-1">
      <p className="text-slate-800" data-testid="app-access">
        <span className="font-medium">Who has it: </span>
        {accessWords(settings.access)}.{" "}
        {settings.access !== "everyone" && "For everyone else it is as if it were not connected: their assistant has none of its tools, and its names are free for their other apps."}
      </p>
      {/* Without groups there is nothing to choose, unless the groups it was for are gone and it is for no one. */}
      {canManage && (groups.length > 0 || settings.access !== "everyone") && (
        <form
          aria-label={`Who has ${appName}`}
          // Saved only through the confirm dialog, which says first whose tools this changes.
          onSubmit={(e) => e.preventDefault()}
          className="space-y-2"
        >
          <fieldset aria-describedby={save.isError ? `${id}-error` : undefined} className="space-y-1">
            <legend className="sr-only">Who has {appName}</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${id}-access`} checked={chosen === null} onChange={() => setChosen(null)} />
              Everyone
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${id}-access`} checked={chosen !== null} onChange={() => setChosen(saved ?? [])} />
              Only the groups chosen
            </label>
            {chosen !== null && (
              <ul className="ml-6 flex flex-wrap gap-x-4 gap-y-1" aria-label="Groups that have it">
                {groups.map((g) => (
                  <li key={g.id}>
                    <label className="flex items-center gap-2 break-all">
                      <input
                        type="checkbox"
                        checked={chosen.includes(g.id)}
                        onChange={(e) => setChosen(e.target.checked ? [...chosen, g.id] : chosen.filter((x) => x !== g.id))}
                      />
                      {g.name}
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
          {save.isError && (
            <Alert inline id={`${id}-error`}>
              Not saved: {errorMessage(save.error, "something went wrong.")}
            </Alert>
          )}
          {save.isSuccess && !changed && (
            <p role="status" className="text-slate-700">
              Saved.
            </p>
          )}
          {changed && (
            <ConfirmChangeButton
              label="Save who has it"
              org={org}
              change={{ app: { id: appId, settings: { access } } }}
              title={<>Change who has {appName}?</>}
              confirmLabel="Save who has it"
              pending={save.isPending}
              error={save.isError ? errorMessage(save.error, "The change could not be saved.") : null}
              onOpen={() => save.reset()}
              onConfirm={(close) => save.mutate({ access }, { onSuccess: close })}
            >
              <p>
                {access === "everyone"
                  ? `Everyone in the organisation will have ${appName}.`
                  : `Only members of ${groupNames(groups.filter((g) => access.groups.includes(g.id))) || "no group"} will have ${appName}; for everyone else it is as if it were not connected.`}
              </p>
            </ConfirmChangeButton>
          )}
        </form>
      )}
    </div>
  );
}

type Draft = Record<string, ToolSetting>;

function GroupToolSettings({ org, appId, check, settings, groups, canManage }: { org: string; appId: string; check: AppCheck | null; settings: OrgAppSettings; groups: Group[]; canManage: boolean }) {
  const id = useId();
  const client = useQueryClient();
  const save = useMutation(appSettingsMutation(client, org, appId));
  const [groupId, setGroupId] = useState<string>(() => groups[0]?.id ?? "");
  const [draft, setDraft] = useState<Draft>({});
  const group = groups.find((g) => g.id === groupId);
  const savedOf = (gid: string, tool: string): ToolSetting => settings.groups.find((g) => g.id === gid)?.tools.find((t) => t.name === tool)?.setting ?? "default";
  const orgSetting = (tool: string): ToolSetting => settings.tools.find((t) => t.name === tool)?.setting ?? "default";
  const names = groupToolNames((check?.tools ?? []).map((t) => t.name), settings.groups);
  const changes = Object.entries(draft).filter(([tool, s]) => s !== savedOf(groupId, tool));
  const update = { [groupId]: Object.fromEntries(changes) };

  return (
    <div className="space-y-2">
      <h3 className="font-medium text-slate-900">Tool settings per group</h3>
      <p id={`${id}-rule`} className="max-w-3xl text-slate-700" data-testid="strictest-wins">
        For each person the strictest setting wins: a tool blocked by the organisation or by any of their groups is blocked, else one made to ask first by any
        asks first, so no group loosens what the organisation set.
      </p>
      {settings.groups.length > 0 && (
        <ul className="space-y-0.5 text-slate-800" aria-label="Settings of groups">
          {settings.groups.map((g) => (
            <li key={g.id}>
              <span className="font-medium">{g.name}:</span>{" "}
              {g.tools.map((t, i) => (
                <span key={t.name}>
                  {i > 0 && ", "}
                  <code className="font-mono">{t.name}</code> {SETTING_WORDS[t.setting].label.toLowerCase()}
                  {!t.listed && " (waits for the app to list it)"}
                </span>
              ))}
            </li>
          ))}
        </ul>
      )}
      {canManage && group !== undefined && names.length > 0 && (
        <form
          aria-label="Tool settings of a group"
          aria-describedby={`${id}-rule`}
          onSubmit={(e) => e.preventDefault()}
          className="space-y-2"
        >
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={`${id}-group`} className="font-medium text-slate-800">
              Group
            </label>
            <select
              id={`${id}-group`}
              value={groupId}
              onChange={(e) => {
                setGroupId(e.target.value);
                setDraft({});
                save.reset();
              }}
              className="rounded border border-slate-300 bg-white px-2 py-1"
            >
              {groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </div>
          <div className="overflow-x-auto rounded border border-slate-200">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Settings of {group.name} for this app&apos;s tools</caption>
              <TableHead
                columns={[
                  { key: "tool", label: "Tool" },
                  { key: "org", label: "Organisation" },
                  { key: "group", label: group.name },
                ]}
              />
              <tbody>
                {names.map((tool) => {
                  const value = draft[tool] ?? savedOf(groupId, tool);
                  return (
                    <tr key={tool} className="border-t border-slate-200">
                      <th scope="row" className="px-3 py-1.5 font-mono font-normal break-all">
                        {tool}
                      </th>
                      <td className="px-3 py-1.5">{SETTING_WORDS[orgSetting(tool)].label}</td>
                      <td className="px-3 py-1.5">
                        <label htmlFor={`${id}-${tool}`} className="sr-only">
                          {tool} for {group.name}
                        </label>
                        <select
                          id={`${id}-${tool}`}
                          value={value}
                          onChange={(e) => setDraft((d) => ({ ...d, [tool]: toolSetting.parse(e.target.value) }))}
                          className="rounded border border-slate-300 bg-white px-1 py-0.5"
                        >
                          {toolSetting.options.map((o) => (
                            <option key={o} value={o}>
                              {SETTING_WORDS[o].label}
                            </option>
                          ))}
                        </select>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {save.isError && <Alert inline>Not saved: {errorMessage(save.error, "something went wrong.")}</Alert>}
          {save.isSuccess && changes.length === 0 && (
            <p role="status" className="text-slate-700">
              Saved for {group.name}.
            </p>
          )}
          {changes.length > 0 && (
            <ConfirmChangeButton
              label={`Save ${plural(changes.length, "change")} for ${group.name}`}
              org={org}
              change={{ app: { id: appId, settings: { groups: update } } }}
              title={<>Save {plural(changes.length, "change")} for {group.name}?</>}
              confirmLabel={`Save for ${group.name}`}
              pending={save.isPending}
              error={save.isError ? errorMessage(save.error, "The settings could not be saved.") : null}
              onOpen={() => save.reset()}
              onConfirm={(close) =>
                save.mutate(
                  { groups: update },
                  {
                    onSuccess: () => {
                      setDraft({});
                      close();
                    },
                  },
                )
              }
            >
              <p>
                {changes.map(([tool, setting]) => `${tool}: ${SETTING_WORDS[setting].label.toLowerCase()}`).join(", ")}, for the members of {group.name}. The strictest
                of the organisation&apos;s setting and their groups&apos; still wins.
              </p>
            </ConfirmChangeButton>
          )}
        </form>
      )}
    </div>
  );
}
