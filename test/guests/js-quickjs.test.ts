/**
 * The JavaScript and TypeScript example policies built by the kit with QuickJS (componentize-qjs,
 * synchronous ABI), through the real component transport against the shared cases file, plus what the
 * components import and the conformance guest's environment grant. SpiderMonkey builds: js.test.ts.
 */
import { jsGuestSuite } from '../helpers/js-guests.js';

jsGuestSuite('quickjs');
