import { describe, expect, it } from 'vitest';
import { buildHook } from '../../host/config/build.js';
import { parseConfig, type HookConfig } from '../../host/config/index.js';
import { ConfigError, isBasisHooksError, isOptionsError, OptionsError } from '../../host/errors/index.js';
import { interceptorTransport } from '../../host/transports/in-process/index.js';
import { subprocessTransport } from '../../host/transports/subprocess/index.js';
import { componentTransport } from '../../host/transports/component/index.js';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('option errors carry an option code, not a hook failure code', () => {
  it('timeout_ms: 0 is invalid_options from every transport, naming the option', () => {
    const errors = [
      thrown(() => subprocessTransport({ command: ['true'], timeout_ms: 0 })),
      thrown(() => interceptorTransport(() => ({ decision: 'allow' }), { timeout_ms: 0 })),
      thrown(() => componentTransport({ path: 'x.wasm', timeout_ms: 0 })),
    ];
    for (const error of errors) {
      expect(isOptionsError(error)).toBe(true);
      expect(isBasisHooksError(error)).toBe(true);
      expect((error as OptionsError).code).toBe('invalid_options');
      expect((error as OptionsError).option).toBe('timeout_ms');
    }
  });

  it('an interceptor refuses a timeout no timer can keep', () => {
    for (const timeout_ms of [-1, 1.5, 2 ** 31, Number.NaN]) {
      expect((thrown(() => interceptorTransport(() => ({ decision: 'allow' }), { timeout_ms })) as OptionsError).code).toBe('invalid_options');
    }
  });

  it('in a config the schema refuses them first: config_invalid at the JSON path (0, and past the timer limit)', () => {
    const error = thrown(() =>
      parseConfig(
        {
          hook_schema: 1,
          hooks: [
            { name: 'a', event: 'pre_tool_use', command: ['true'], timeout_ms: 0 },
            { name: 'b', event: 'pre_tool_use', command: ['true'], timeout_ms: 2 ** 31 },
            { name: 'c', event: 'pre_tool_use', component: 'x.wasm', timeout_ms: 2 ** 31 },
          ],
        },
        '/etc/hooks.json',
      ),
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('config_invalid');
    expect((error as ConfigError).issues.map((i) => i.path)).toEqual(['hooks[0].timeout_ms', 'hooks[1].timeout_ms', 'hooks[2].timeout_ms']);
    expect((error as ConfigError).issues[1]?.message).toContain(String(2 ** 31));
  });

  it('buildHook passes a transport\'s refusal on as invalid_options naming the hook', async () => {
    const unchecked = { name: 'guard', event: 'pre_tool_use', command: ['true'], timeout_ms: 0 } as unknown as HookConfig;
    const error = await buildHook(unchecked).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isOptionsError(error) && error.code).toBe('invalid_options');
    expect((error as Error).message).toContain('hook "guard"');
    expect((error as Error).message).toContain('timeout_ms');
  });
});
