import type { ComponentInfo } from '../../transports/component/info.js';
import { KitError } from '../errors/kit-error.js';

/**
 * Load a component exactly as the host will — world check (handler version, import allowlist),
 * transpile, compile with the memory cap, instantiate in a worker — and close it again. Rejects with
 * `KitError('verify_failed')` carrying the loader's `load_failed` message.
 */
export async function verifyComponent(path: string): Promise<ComponentInfo> {
  // Imported here: the component transport brings the WebAssembly toolchain with it.
  const { componentTransport } = await import('../../transports/component/index.js');
  const transport = componentTransport({ path });
  try {
    return await transport.load();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new KitError('verify_failed', `the component was built but does not load: ${detail}`, { cause: error });
  } finally {
    await transport.close();
  }
}
