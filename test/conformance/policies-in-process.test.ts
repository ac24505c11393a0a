/**
 * The example policies as a TypeScript interceptor: the reference the guest languages are held to,
 * and proof that the cases file itself is consistent with guest-examples/POLICIES.md.
 */
import { interceptorTransport } from '../../host/index.js';
import { guard, redact } from '../../guest-examples/ts-interceptor/policies.js';
import { runPolicyCases } from '../helpers/policy-cases.js';

runPolicyCases('in-process interceptor (reference)', (hook) => interceptorTransport(hook === 'guard' ? guard : redact));
