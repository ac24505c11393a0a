import type { HookedCall } from './tool-hooks.js';

/** How many task-augmented calls one connection remembers (the oldest is forgotten first). */
export const REMEMBERED_TASKS = 10_000;

/**
 * The task-augmented `tools/call`s of one connection (2025-11-25 tasks): which call a task id
 * belongs to, so the post chain can run on the task's result when the client fetches it with
 * `tasks/result` — the hooks see the tool name and input of the call that started it.
 */
export class TaskBook {
  readonly #calls = new Map<string, HookedCall>();

  remember(taskId: string, call: HookedCall): void {
    this.#calls.delete(taskId);
    this.#calls.set(taskId, call);
    if (this.#calls.size > REMEMBERED_TASKS) this.#calls.delete(this.#calls.keys().next().value as string);
  }

  recall(taskId: string): HookedCall | undefined {
    return this.#calls.get(taskId);
  }
}
