/** The `baseUrl` and `mediaUrl` options (Section 1, 9.1). */

import { SPEC } from "../limits.ts";
import type { AudienceClientOptions, ClientConfig } from "../option-types.ts";
import { fail, url } from "./checks.ts";

export function addressOptions(options: AudienceClientOptions): Pick<ClientConfig, "baseUrl" | "mediaUrl"> {
  const baseUrl = url("baseUrl", options.baseUrl);
  // Section 1, 9.1: the base address includes the version segment; without it every call goes astray.
  if (!baseUrl.pathname.endsWith(SPEC.apiVersionPath))
    fail(
      "baseUrl",
      `must end with the version segment ${SPEC.apiVersionPath}, e.g. https://<host>${SPEC.apiVersionPath}`,
    );
  const mediaUrl =
    options.mediaUrl === undefined ? new URL(`${baseUrl.origin}${SPEC.mediaPath}`) : url("mediaUrl", options.mediaUrl);
  return { baseUrl, mediaUrl };
}
