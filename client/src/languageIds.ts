/** The language ids the extension contributes (package.json `contributes.languages`) and the URI schemes the server is given, named once for the client. */
export const TPROG = 'tensor-program';
export const PCORE = 'pcore';
export const LAYOUT = 'tensor-layout';
export const OUR_LANGUAGES: readonly string[] = [TPROG, PCORE, LAYOUT];
/** URI schemes of the documents the language client sends the server (its document selector). */
export const SERVED_SCHEMES: readonly string[] = ['file', 'untitled', 'vscode-vfs', 'vscode-test-web'];
/** Whether the server is given `doc` (one of our languages, a scheme it is sent). */
export const isServed = (doc: { languageId: string; uri: { scheme: string } }) =>
  OUR_LANGUAGES.includes(doc.languageId) && SERVED_SCHEMES.includes(doc.uri.scheme);
