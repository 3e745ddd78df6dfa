/**
 * session/token-windows.ts: which window a token is in, from its `exp`, the margins and now. The
 * margins are CLIENT_DEFAULTS' (60 s to refresh in the background, 10 s to wait for the refresh),
 * or half and a tenth of the remaining lifetime for a short-lived token.
 */
import { describe, expect, it } from "vitest";
import { CLIENT_DEFAULTS } from "../../src/limits.ts";
import { expiredAt, postponedTo, tokenTimes, tokenWindow } from "../../src/session/token-windows.ts";

const HOUR = 3_600_000;

describe("token windows", () => {
  it("an hour's token: fresh until 60 s before exp, background until 10 s before, then mandatory", () => {
    const now = 1_000_000;
    const times = tokenTimes(now + HOUR, now);
    expect(times.renewAt).toBe(now + HOUR - CLIENT_DEFAULTS.tokenRefreshSkewMs);
    expect(times.hardAt).toBe(now + HOUR - CLIENT_DEFAULTS.tokenHardMarginMs);
    expect(tokenWindow(times, times.renewAt - 1)).toBe("fresh");
    expect(tokenWindow(times, times.renewAt)).toBe("background");
    expect(tokenWindow(times, times.hardAt - 1)).toBe("background");
    expect(tokenWindow(times, times.hardAt)).toBe("mandatory");
    expect(tokenWindow(times, now + HOUR + 1)).toBe("mandatory");
  });

  it("a token living 40 s: refreshed at half its lifetime, waited for at the last tenth", () => {
    const times = tokenTimes(40_000, 0);
    expect(times).toEqual({ expiry: 40_000, renewAt: 20_000, hardAt: 36_000 });
  });

  it("a token received since the call began is fresh for it whatever the margins", () => {
    const times = tokenTimes(10_000, 0);
    expect(tokenWindow(times, 9_999, true)).toBe("fresh");
  });

  it("a token without exp never falls due", () => {
    const times = tokenTimes(undefined, 0);
    expect(tokenWindow(times, Number.MAX_SAFE_INTEGER)).toBe("fresh");
  });

  it("a 401 makes every margin pass at once; a cool-down puts the refresh off, never past exp", () => {
    const times = tokenTimes(HOUR, 0);
    expect(tokenWindow(expiredAt(times, 5_000), 5_000)).toBe("mandatory");
    const later = postponedTo(tokenTimes(HOUR, 0), HOUR - 30_000);
    expect(later.renewAt).toBe(HOUR - 30_000);
    expect(postponedTo(times, HOUR + 60_000).renewAt).toBe(HOUR);
  });
});
