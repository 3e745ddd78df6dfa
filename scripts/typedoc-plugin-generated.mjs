/**
 * TypeDoc plugin (loaded by typedoc.json): exempts generated/ from the "every export is
 * documented" check, and only generated/. Its comments are copied by openapi-typescript from the
 * API description (summaries, descriptions, examples) and it may not be edited by hand; every
 * export written in src/ must still carry TSDoc, and a missing comment there still fails
 * `npm run docs`.
 */
const GENERATED = /defined in \S*\/generated\/\S+, does not have any documentation/;

/** @param {import("typedoc").Application} app */
export function load(app) {
  const warn = app.logger.validationWarning.bind(app.logger);
  let exempted = 0;
  app.logger.validationWarning = (message, ...rest) => {
    if (GENERATED.test(String(message))) {
      exempted += 1;
      return;
    }
    warn(message, ...rest);
  };
  app.renderer.on("endRender", () => {
    if (exempted)
      app.logger.info(`generated/: ${exempted} members without comments exempted from validation.notDocumented`);
  });
}
