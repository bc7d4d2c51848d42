import { describe, expect, it } from "vitest";
import { holdShutdownFor, isDraining, requestStarted, requestsDone, requestsUnderWay, startDraining } from "./drain";

// What a shutdown waits for: the requests under way and the work a streamed answer goes on with.
describe("the drain", () => {
  it("waits for the requests under way and the work held for, whichever ends last", async () => {
    const end = requestStarted();
    let finish!: () => void;
    const held = holdShutdownFor(new Promise<void>((resolve) => (finish = resolve)));
    expect(requestsUnderWay()).toBe(2);
    let done = false;
    const drained = requestsDone().then(() => (done = true));
    end();
    end(); // ending twice counts once
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    finish();
    await held;
    await drained;
    expect(requestsUnderWay()).toBe(0);
  });

  it("counts held work that fails as ended too", async () => {
    await expect(holdShutdownFor(Promise.reject(new Error("the read broke")))).rejects.toThrow("the read broke");
    expect(requestsUnderWay()).toBe(0);
    await requestsDone();
  });

  it("starts once", () => {
    expect(isDraining()).toBe(false);
    expect(startDraining()).toBe(true);
    expect(startDraining()).toBe(false);
    expect(isDraining()).toBe(true);
  });
});
