/**
 * The hook adapter's guest worker: the engine's worker runtime serving `handle` calls with the hook
 * binding and codec, and segments of a chain (several hooks in one hop, segment.ts) as its program. Started by the engine's worker pool from this module's URL (from dist/ the
 * compiled `.js`; from the TypeScript sources, bundled once per process: engine/executor/from-source.ts).
 */
import { serveWorker } from '../../engine/executor/worker-runtime.js';
import { BindingData, hookBinding } from './binding.js';
import { hookCodec } from './codec.js';
import { runSegment } from './segment.js';

serveWorker({ binding: (data) => hookBinding(BindingData.parse(data)), codec: hookCodec, program: runSegment });
