"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, errorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { callApi, orgPath } from "@/lib/queries/api";
import { orgKeys } from "@/lib/queries/orgs";
import { registrySetting } from "@/lib/schemas/registry";

/** Whether the organisation publishes its registry (SPEC §24): the settings' `registry`. */
const registryQuery = (org: string) => queryOptions({ queryKey: [...orgKeys.settings(org), "registry"], queryFn: async () => registrySetting.parse(await callApi(`${orgPath(org)}/settings`)) });

/**
 * The organisation's registry (SPEC §24): its available, reviewed apps for everyone (§25: never one only for some groups) as an MCP Registry that
 * VS Code and GitHub Copilot can use. A leader turns it on and is shown its address once; turning
 * it on again makes a new address, and off stops the old one.
 */
export function RegistryPanel({ org, canManage }: { org: string; canManage: boolean }) {
  const client = useQueryClient();
  const state = useQuery(registryQuery(org));
  const toggle = useMutation({
    mutationKey: ["orgs", org, "registry"],
    mutationFn: async (registry: boolean) => registrySetting.parse(await callApi(`${orgPath(org)}/settings`, { method: "PATCH", body: { registry } })),
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.settings(org) }),
  });
  const on = toggle.data?.registry ?? state.data?.registry ?? false;
  const address = toggle.data?.registryUrl;
  return (
    <Card className="space-y-2" aria-labelledby={`registry-${org}`}>
      <CardTitle id={`registry-${org}`}>Registry for assistants</CardTitle>
      <p className="text-sm text-slate-700">
        {on
          ? "On: the apps for everyone that are available with no tool awaiting review are published as an MCP Registry, for VS Code's and GitHub Copilot's registry setting (an app only for some groups is in those groups' registries, on Members). Header values are never published."
          : "Off: publish the available, reviewed apps for everyone as an MCP Registry that VS Code and GitHub Copilot can use."}
      </p>
      {address !== undefined && (
        <div className="space-y-1 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950">
          <p>Its address, shown this once (anyone with it can read the list):</p>
          <p className="flex flex-wrap items-center gap-2">
            <code className="break-all">{address}</code>
            <CopyButton text={address} label="Copy the address" compact />
          </p>
        </div>
      )}
      {canManage && (
        <div className="flex flex-wrap gap-2">
          <Button variant={on ? "secondary" : "primary"} disabled={toggle.isPending} onClick={() => toggle.mutate(true)}>
            {on ? "Make a new address" : "Turn on"}
          </Button>
          {on && (
            <Button variant="danger" disabled={toggle.isPending} onClick={() => toggle.mutate(false)}>
              Turn off
            </Button>
          )}
        </div>
      )}
      {toggle.isError && <Alert title="The registry could not be changed">{errorMessage(toggle.error, "Something went wrong.")}</Alert>}
    </Card>
  );
}
