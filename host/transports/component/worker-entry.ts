/**
 * The hook adapter's guest worker: the engine's worker runtime serving `handle` calls with the hook
 * binding and codec. Started by the engine's worker pool from this module's URL (from dist/ the
 * compiled `.js`; from the TypeScript sources, bundled once per process: engine/executor/from-source.ts).
 */
import { serveWorker } from '../../engine/executor/worker-runtime.js';
import { BindingData, hookBinding } from './binding.js';
import { hookCodec } from './codec.js';

serveWorker({ binding: (data) => hookBinding(BindingData.parse(data)), codec: hookCodec });
