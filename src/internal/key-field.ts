/**
 * The field of an issue about a caller's key (a query parameter, a parameter object's entry): the
 * keys are appended while each is a plain name (letters, digits, `_`, `-`, `.`, at most 64), and
 * the first that is not ends the field. A key like `token=…` or `Authorization: Bearer …` is a
 * pasted line that may hold a secret, and no error repeats it (README, Errors).
 */
const PLAIN = /^[\w.-]{1,64}$/;

export function keyField(prefix: string, ...keys: string[]): string {
  let field = prefix;
  for (const key of keys) {
    if (!PLAIN.test(key)) break;
    field += `.${key}`;
  }
  return field;
}
