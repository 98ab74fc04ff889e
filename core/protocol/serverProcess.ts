/**
 * How the language server's Node process is started: the desktop client, the LSP tests and the
 * benchmark all use these flags, so what is measured is what users run.
 *
 * `--max-semi-space-size=32` (MiB; V8's default is 16): a full check of a large tensor program keeps
 * tens of megabytes of results alive while it allocates, and with the default young generation V8
 * scavenges several times per check, copying the live results each time. Measured with `npm run bench`
 * (20,020-line program, warm server): median full check about 25 % faster; the first check in a fresh
 * process about 10 % slower; at most 32 MiB more memory for the young generation.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
