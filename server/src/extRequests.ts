/**
 * Registering and sending the typed requests of core/protocol/lspExt.ts.
 *
 * Why not `connection.onRequest(RunRequest, …)`: vscode-languageserver 10.1.2 pins protocol 3.18.4
 * and with it its own vscode-jsonrpc 9, while lspExt's types come from the jsonrpc 10 the client
 * library uses; TypeScript treats the two `RequestType` classes as unrelated (a private member), so
 * the server would reject the client's types. These helpers take lspExt's type, check the handler
 * against its parameters and result, and register by the type's method name (the wire is the same).
 */
import type { CancellationToken, Connection, Disposable, HandlerResult } from 'vscode-languageserver';
import type { NotificationType, RequestType, RequestType0 } from 'vscode-jsonrpc';

export function onRequest<P, R>(
  connection: Connection,
  type: RequestType<P, R, void>,
  handler: (params: P, token: CancellationToken) => HandlerResult<NoInfer<R>, void>,
): Disposable {
  return connection.onRequest<R, void>(type.method, handler);
}

export function onRequest0<R>(
  connection: Connection,
  type: RequestType0<R, void>,
  handler: (token: CancellationToken) => HandlerResult<NoInfer<R>, void>,
): Disposable {
  return connection.onRequest<R, void>(type.method, handler);
}

export function sendNotification<P>(connection: Connection, type: NotificationType<P>, params: P): Promise<void> {
  return connection.sendNotification(type.method, params);
}
