"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { LoadError, Loading } from "@/components/connections/states";
import { Button } from "@/components/ui/button";
import { Alert, errorMessage } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { EXPORT_PROFILES } from "@/lib/exports/hosts";
import { buildZip, zipName, type HostAnswer } from "@/lib/exports/zip";
import { hostExportQuery, type ExportTarget } from "@/lib/queries/people";
import { EXPORT_HOSTS, type ExportFallback, type ExportFile, type ExportHost } from "@/lib/schemas/exports";

/**
 * "Use in other assistants" (SPEC §26): a person's or a group's decisions as one host's own files, each
 * previewed with Copy and Download, and what that host cannot say, with what the file does instead;
 * or every host's at once as `<org>-<scope>-assistants.zip` (`scope`: the group's or person's name, or "everyone").
 */
export function OtherAssistants({ org, target, name, scope, startOpen = false }: { org: string; target: ExportTarget; name: string; scope: string; startOpen?: boolean }) {
  const [host, setHost] = useState<ExportHost>("claude-code");
  // null: as the organisation's `exportFallback` says (a leader sets it on Connections).
  const [fallback, setFallback] = useState<ExportFallback | null>(null);
  // Closed until asked for: the files are long, and a page leads with its own subject (an unavailable app's reason).
  const [open, setOpen] = useState(startOpen);
  const answer = useQuery({ ...hostExportQuery(org, target, host, fallback), enabled: open });
  const profile = EXPORT_PROFILES[host];
  const intro = (
    <p className="text-sm text-slate-700">The same decisions for {name}, as another assistant&apos;s own configuration. No file holds a secret: put each app&apos;s header values in the variables named.</p>
  );
  if (!open) {
    return (
      <section aria-labelledby="other-assistants" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="other-assistants" className="text-lg font-semibold text-slate-900">
          Use in other assistants
        </h2>
        {intro}
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Show the files
        </Button>
      </section>
    );
  }
  return (
    <section aria-labelledby="other-assistants" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="other-assistants" className="text-lg font-semibold text-slate-900">
        Use in other assistants
      </h2>
      {intro}
      <div className="flex flex-wrap items-end gap-4">
        <label className="flex flex-col gap-1 text-sm text-slate-800">
          Assistant
          <select className="rounded border border-slate-300 px-2 py-1" value={host} onChange={(e) => setHost(e.target.value as ExportHost)}>
            {EXPORT_HOSTS.map((id) => (
              <option key={id} value={id}>
                {EXPORT_PROFILES[id].name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm text-slate-800">
          What it cannot say
          <select className="rounded border border-slate-300 px-2 py-1" value={fallback ?? ""} onChange={(e) => setFallback(e.target.value === "" ? null : (e.target.value as ExportFallback))}>
            <option value="">As the organisation chose</option>
            <option value="strict">Leave it out (strict)</option>
            <option value="loose">Keep it and list it (loose)</option>
          </select>
        </label>
      </div>
      <ZipDownload org={org} target={target} scope={scope} fallback={fallback} />
      {answer.isPending ? (
        <Loading label={`Writing ${profile.name}'s files…`} />
      ) : answer.isError ? (
        <LoadError what={`${profile.name}'s files`} error={answer.error} onRetry={() => void answer.refetch()} />
      ) : (
        <div className="space-y-3">
          {answer.data.files.map((file) => (
            <FilePreview key={file.path} file={file} />
          ))}
          {answer.data.registry !== undefined && (
            <p className="text-sm text-slate-800" data-testid="export-registry">
              <span className="font-medium text-slate-900">Registry only: </span>
              {answer.data.registry.what}
            </p>
          )}
          {answer.data.cannot.length > 0 && (
            <div className="space-y-1">
              <h3 className="font-medium text-slate-900">What {profile.name} cannot say</h3>
              <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800" aria-label={`What ${profile.name} cannot say`}>
                {answer.data.cannot.map((c, i) => (
                  <li key={i}>
                    {c.what} <span className="text-slate-700">{c.applied}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p className="text-xs text-slate-700">Fields as documented in: {profile.sources.join("; ")} (checked {profile.checked}).</p>
        </div>
      )}
    </section>
  );
}

/** Every host's files for this scope in one `.zip`, a folder per host; a host that fails is named with why, and the others still download. */
function ZipDownload({ org, target, scope, fallback }: { org: string; target: ExportTarget; scope: string; fallback: ExportFallback | null }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<{ host: ExportHost; error: string }[]>([]);
  const [empty, setEmpty] = useState(false);
  const download = async () => {
    setBusy(true);
    setFailed([]);
    setEmpty(false);
    try {
      const answers: HostAnswer[] = await Promise.all(
        EXPORT_HOSTS.map((host) =>
          queryClient.fetchQuery(hostExportQuery(org, target, host, fallback)).then(
            (answer): HostAnswer => ({ host, export: answer }),
            (error: unknown): HostAnswer => ({ host, error: errorMessage(error, "Something went wrong reading the answer.") }),
          ),
        ),
      );
      setFailed(answers.flatMap((a) => ("error" in a ? [{ host: a.host, error: a.error }] : [])));
      const zip = buildZip(answers);
      if (zip === null) {
        setEmpty(answers.every((a) => "export" in a));
        return;
      }
      const url = URL.createObjectURL(new Blob([zip], { type: "application/zip" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = zipName(org, scope);
      link.click();
      URL.revokeObjectURL(url);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="space-y-2">
      <Button variant="secondary" disabled={busy} onClick={() => void download()}>
        {busy ? "Writing the .zip…" : "Download all (.zip)"}
      </Button>
      {failed.length > 0 && (
        <Alert tone={failed.length === EXPORT_HOSTS.length ? "error" : "warning"} title={failed.length === EXPORT_HOSTS.length ? "No assistant's files could be read: nothing was downloaded" : "Left out of the .zip: the other assistants' files downloaded"}>
          <ul className="list-disc space-y-1 pl-5" aria-label="Assistants left out of the .zip">
            {failed.map((f) => (
              <li key={f.host}>
                {EXPORT_PROFILES[f.host].name}: {f.error}
              </li>
            ))}
          </ul>
        </Alert>
      )}
      {empty && <p className="text-sm text-slate-800">No assistant has a file to write for {scope}: nothing was downloaded.</p>}
    </div>
  );
}

function FilePreview({ file }: { file: ExportFile }) {
  const base = file.path.split("/").pop() ?? file.path;
  const download = () => {
    const url = URL.createObjectURL(new Blob([file.text], { type: file.format === "json" ? "application/json" : "application/toml" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = base;
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <figure className="space-y-1">
      <figcaption className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-mono text-sm text-slate-900">{file.path}</span>
        <span className="flex items-center gap-2">
          <CopyButton text={file.text} label={base} />
          <Button variant="secondary" className="px-3 py-1.5" onClick={download}>
            Download<span className="sr-only"> {base}</span>
          </Button>
        </span>
      </figcaption>
      <pre className="max-h-80 overflow-auto rounded bg-slate-50 p-3 text-xs text-slate-900" tabIndex={0} aria-label={`${base} as written`}>
        {file.text}
      </pre>
    </figure>
  );
}
