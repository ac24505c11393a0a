/*
 * Every MCP method the gateway understands, by direction and kind (the union of 2025-11-25 and
 * 2026-07-28, plus the tasks extension). The gateway forwards only what is in these tables: a message
 * it does not understand cannot be checked, so by default it is refused (see {@link UnknownMethods}).
 */

/** Requests a client sends to a server. */
export const CLIENT_REQUESTS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
  // 2026-07-28
  'server/discover',
  'subscriptions/listen',
  // io.modelcontextprotocol/tasks (the extension that replaced 2025-11-25's tasks)
  'tasks/update',
]);

/** Notifications a client sends to a server. */
export const CLIENT_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/tasks/status',
]);

/** Requests a server sends to a client (2025-11-25; 2026-07-28 embeds them in results instead). */
export const SERVER_REQUESTS: ReadonlySet<string> = new Set([
  'ping',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
]);

/** Notifications a server sends to a client. */
export const SERVER_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'notifications/cancelled',
  'notifications/progress',
  'notifications/message',
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/elicitation/complete',
  'notifications/tasks/status',
  // 2026-07-28 and the tasks extension
  'notifications/subscriptions/acknowledged',
  'notifications/tasks',
]);

/** Every method that asks the receiver to act and answer, in either direction. */
export const REQUEST_METHODS: ReadonlySet<string> = new Set([...CLIENT_REQUESTS, ...SERVER_REQUESTS]);

/**
 * What the gateway does with a method in none of its tables:
 * - `refuse` (default): a request gets `-32601` (method not found) from the gateway and never
 *   reaches the other side; a notification is dropped and logged;
 * - `forward`: it is passed through unhooked, ids remapped like any other (for a server or client
 *   with vendor methods the operator has decided to trust).
 *
 * Either way, a *notification* whose method is a request method (a `tools/call` without an id) is
 * always dropped and logged: it would make the other side act with nobody checking or answering.
 */
export type UnknownMethods = 'refuse' | 'forward';

/** How the gateway treats one method arriving from one side. */
export type MethodVerdict =
  /** In the table for this direction and kind: handled. */
  | { readonly kind: 'known' }
  /** A request method sent as a notification, or a notification method sent as a request. */
  | { readonly kind: 'misused'; readonly why: string }
  /** In the table of the other direction only (a client sending `sampling/createMessage`). */
  | { readonly kind: 'wrong_direction'; readonly why: string }
  /** In no table. */
  | { readonly kind: 'unknown' };

/** Where a message comes from. */
export type Side = 'client' | 'server';

/** The verdict for `method` arriving from `side` as a request (`isRequest`) or a notification. */
export function judgeMethod(side: Side, method: string, isRequest: boolean): MethodVerdict {
  const [requests, notifications, otherRequests, otherNotifications] =
    side === 'client'
      ? [CLIENT_REQUESTS, CLIENT_NOTIFICATIONS, SERVER_REQUESTS, SERVER_NOTIFICATIONS]
      : [SERVER_REQUESTS, SERVER_NOTIFICATIONS, CLIENT_REQUESTS, CLIENT_NOTIFICATIONS];
  if (isRequest) {
    if (requests.has(method)) return { kind: 'known' };
    if (notifications.has(method) || otherNotifications.has(method)) return { kind: 'misused', why: `"${method}" is a notification, sent as a request (with an id)` };
    if (otherRequests.has(method)) return { kind: 'wrong_direction', why: `"${method}" is sent by the ${side === 'client' ? 'server' : 'client'}, not the ${side}` };
    return { kind: 'unknown' };
  }
  if (notifications.has(method)) return { kind: 'known' };
  if (REQUEST_METHODS.has(method)) return { kind: 'misused', why: `"${method}" is a request, sent as a notification (without an id): nothing would check or answer it` };
  if (otherNotifications.has(method)) return { kind: 'wrong_direction', why: `"${method}" is sent by the ${side === 'client' ? 'server' : 'client'}, not the ${side}` };
  return { kind: 'unknown' };
}
