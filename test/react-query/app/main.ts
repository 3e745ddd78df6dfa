/**
 * The browser test's React app (test/react-query/browser.test.ts bundles it with esbuild and runs
 * it in Debian's Chromium): each scenario renders real components over the binding and returns
 * what it saw; the test reads the rest from the site's record of the requests.
 */
import { attemptsScenario } from "./attempts.ts";
import { firstLoadScenario } from "./first-load.ts";
import { pagesScenario } from "./pages.ts";
import { partnersScenario } from "./partners.ts";
import { publishScenario } from "./publish.ts";
import { suspenseScenario } from "./suspense.ts";
import { finishWizard, startWizard } from "./wizard.ts";
import { savedShape, startShape, stopShapes } from "./wizard-shapes.ts";

Object.assign(globalThis, {
  scenarios: {
    partners: partnersScenario,
    publish: publishScenario,
    attempts: attemptsScenario,
    pages: pagesScenario,
    suspense: suspenseScenario,
    firstLoad: firstLoadScenario,
  },
  wizard: { start: startWizard, finish: finishWizard },
  shapes: { start: startShape, saved: savedShape, stop: stopShapes },
});
