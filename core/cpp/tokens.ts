/**
 * How the shared C preprocessor parts read a token. The two preprocessors keep their own tokens
 * (the host's carry a source file and offset for the tree-sitter location map, PCORE's a range, the
 * macro they came from and directive data), so the shared code sees them only through this view.
 */
export interface TokenView<T> {
  /** Spelling of the token (punctuators, names and literals as written). */
  text(t: T): string;
  /** An identifier (PCORE identifiers may be `class::member`). */
  isIdent(t: T): boolean;
  /** White space precedes the token (tells `#define F(x)` from `#define F (x)`). */
  spaceBefore(t: T): boolean;
}
