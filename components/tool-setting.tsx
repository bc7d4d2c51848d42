"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useId, useState, type ReactNode } from "react";
import { ChangePreview } from "@/components/confirm-change";
import { errorMessage } from "@/components/ui/alert";
import { ConfirmedSelect } from "@/components/ui/confirmed-select";
import { settingWords } from "@/lib/engine/tool-settings";
import { appSettingsMutation } from "@/lib/queries/orgs";
import { toolSetting, type ToolCheck, type ToolSetting } from "@/lib/schemas/check";
import { SETTING_WORDS } from "@/lib/schemas/settings";

/**
 * The leader's say per tool on the check view (SPEC §19). A page gives the app whose tools its
 * viewer may set (a leader on an org app, the owner on their personal app); everyone else sees
 * the setting without the control.
 */
interface ToolSettingsSource {
  org: string;
  app: string;
  personal: boolean;
}

const ToolSettingsContext = createContext<ToolSettingsSource | null>(null);

/** Lets the tools below be set through `source` (null: the settings are shown, not changed). */
export function ToolSettingsProvider({ source, children }: { source: ToolSettingsSource | null; children: ReactNode }) {
  return <ToolSettingsContext.Provider value={source}>{children}</ToolSettingsContext.Provider>;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The setting in force, in words, for everyone: "Made to ask first by leader@… on 4 Dec 2026"; nothing for the default. */
export function SettingText({ tool }: { tool: ToolCheck }) {
  if (tool.leaderSetting === null) return null;
  // A blocked tool's left-out reason already says who blocked it and when.
  if (tool.leftOut?.code === "blocked") return null;
  return (
    <span className="mt-1 block text-xs font-medium text-amber-900" data-testid="tool-setting">
      {capital(settingWords(tool.leaderSetting))}
    </span>
  );
}

/** The setting control of one tool's row, for those who may change it: a menu that says what each choice does. */
export function ToolSettingControl({ tool }: { tool: ToolCheck }) {
  const source = useContext(ToolSettingsContext);
  if (source === null || tool.name === null) return null;
  return <SettingMenu source={source} tool={tool} name={tool.name} />;
}

function SettingMenu({ source, tool, name }: { source: ToolSettingsSource; tool: ToolCheck; name: string }) {
  const id = useId();
  const client = useQueryClient();
  const save = useMutation(appSettingsMutation(client, source.org, source.app, source.personal));
  // The setting a saved change replaced, so that it can be undone: a block takes a tool from
  // every person's assistant at once, and one slip of the menu should cost one click to mend.
  const [undo, setUndo] = useState<{ from: ToolSetting; to: ToolSetting } | null>(null);
  const current: ToolSetting = tool.leaderSetting?.setting ?? "default";
  const shown = save.isPending && save.variables?.tools?.[name] !== undefined ? save.variables.tools[name] : current;
  const change = (to: ToolSetting, from: ToolSetting, undoable: boolean) =>
    save.mutate({ tools: { [name]: to } }, { onSuccess: () => setUndo(undoable ? { from, to } : null) });
  const error = save.isError ? errorMessage(save.error, "something went wrong.") : null;
  return (
    <div className="mt-1 text-xs">
      {source.personal ? (
        <>
          <label htmlFor={id} className="sr-only">
            Setting of {tool.title}
          </label>
          <select
            id={id}
            value={shown}
            disabled={save.isPending}
            aria-describedby={`${id}-does`}
            onChange={(e) => change(toolSetting.parse(e.target.value), current, true)}
            className="max-w-full rounded border border-slate-300 bg-white px-1 py-0.5"
          >
            {toolSetting.options.map((o) => (
              <option key={o} value={o}>
                {SETTING_WORDS[o].label}
              </option>
            ))}
          </select>
        </>
      ) : (
        // An org app's setting changes every person's tools: the dialog says whose, and how, before it is saved (SPEC §23).
        <ConfirmedSelect
          id={id}
          label={`Setting of ${tool.title}`}
          describedBy={`${id}-does`}
          value={shown}
          options={toolSetting.options}
          optionLabel={(o) => SETTING_WORDS[o].label}
          confirmLabel="Save for everyone"
          pending={save.isPending}
          error={error}
          title={(chosen) => `${tool.title}: ${SETTING_WORDS[chosen].label.toLowerCase()}, for everyone?`}
          body={(chosen) => (
            <>
              <p>{SETTING_WORDS[chosen].does}</p>
              <ChangePreview org={source.org} change={{ app: { id: source.app, settings: { tools: { [name]: chosen } } } }} />
            </>
          )}
          onOpen={() => save.reset()}
          onConfirm={(chosen, close) =>
            save.mutate(
              { tools: { [name]: chosen } },
              {
                onSuccess: () => {
                  setUndo({ from: current, to: chosen });
                  close();
                },
              },
            )
          }
        />
      )}
      {/* What the choice does, whole: an option's text is cut to the width of a closed menu. */}
      <span id={`${id}-does`} className="mt-0.5 block max-w-72 text-slate-700" data-testid="setting-does">
        {SETTING_WORDS[shown].does}
      </span>
      {undo !== null && !save.isPending && (
        <span role="status" className="mt-1 flex flex-wrap items-center gap-x-2 text-slate-800">
          {SETTING_WORDS[undo.to].label}, saved.
          <button
            type="button"
            className="font-medium text-indigo-800 underline"
            onClick={() => change(undo.from, undo.to, false)}
          >
            Undo<span className="sr-only">: make {tool.title} {SETTING_WORDS[undo.from].label.toLowerCase()} again</span>
          </button>
        </span>
      )}
      {save.isError && (
        <span role="alert" className="mt-1 block text-rose-900">
          Not saved: {error}
        </span>
      )}
    </div>
  );
}
