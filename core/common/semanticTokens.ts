/**
 * The semantic-token legend the server announces once for all its languages (tensor programs and
 * layout specs both produce tokens in it), and the token the features produce.
 */
export const TOKEN_TYPES = ['keyword', 'namespace', 'type', 'class', 'property', 'parameter', 'function', 'variable', 'macro', 'operator', 'number'] as const;
export const TOKEN_MODIFIERS = ['declaration', 'readonly', 'defaultLibrary'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

/** A token on one line; `type` indexes TOKEN_TYPES, `modifiers` is a bit set over TOKEN_MODIFIERS. */
export interface SemToken {
  line: number;
  char: number;
  length: number;
  type: number;
  modifiers: number;
}
