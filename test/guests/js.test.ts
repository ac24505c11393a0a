/**
 * The JavaScript and TypeScript example policies (guest-examples/js, guest-examples/ts), built by the
 * kit with SpiderMonkey (componentize-js), run through the real component transport against the shared
 * cases file — the same cases every guest language passes — plus what the components import and the
 * conformance guest's environment grant. QuickJS builds: js-quickjs.test.ts.
 */
import { jsGuestSuite } from '../helpers/js-guests.js';

jsGuestSuite('spidermonkey');
