/** The language ids the extension contributes (package.json `contributes.languages`), named once for the client. */
export const TPROG = 'tensor-program';
export const PCORE = 'pcore';
export const LAYOUT = 'tensor-layout';
export const OUR_LANGUAGES: readonly string[] = [TPROG, PCORE, LAYOUT];
