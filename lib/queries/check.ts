import { mutationOptions } from "@tanstack/react-query";
import { checkResult, type CheckRequest, type CheckResult } from "@/lib/schemas/check";
import { callApi } from "./api";

async function postCheck(request: CheckRequest): Promise<CheckResult> {
  return checkResult.parse(await callApi("/api/check", { method: "POST", body: request }));
}

export const checkMutation = () => mutationOptions({ mutationKey: ["check"], mutationFn: postCheck });
