import { runawaySuite } from './runaways.js';

// Issue 8's runaways in a worker: answered at the deadline; the worker's meter stops the guest and
// the worker serves the next call.
runawaySuite('worker');
