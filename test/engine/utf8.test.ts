import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentTransport, type ComponentIsolation, type ComponentTransport } from '../../host/transports/component/index.js';
import { hostileGuest } from '../../scripts/hostile/build.js';
import { TEST_CACHE_DIR } from '../helpers/guests.js';
import { CONTEXT, preRequest } from '../transports/component/requests.js';

// The same bytes from a subprocess hook are malformed_response; a component's are too, not U+FFFD text.
for (const isolation of ['metered', 'worker'] as const satisfies readonly ComponentIsolation[]) {
  describe(`${isolation} isolation: a string a component returns that is not UTF-8 is malformed_response`, () => {
    let t: ComponentTransport;
    beforeAll(async () => {
      t = componentTransport({ path: await hostileGuest('bad-utf8'), cache_dir: TEST_CACHE_DIR, isolation, pool_size: 1 });
      await t.load();
    });
    afterAll(async () => {
      await t.close();
    });

    for (const [tool, where] of [
      ['deny', 'a deny reason'],
      ['modify', "a modify's JSON text"],
      ['err', 'the err message'],
    ] as const) {
      it(`in ${where}`, async () => {
        const result = await t.invoke(preRequest({}, tool), CONTEXT);
        expect(result).toMatchObject({ ok: false, failure: { code: 'malformed_response' } });
        expect(JSON.stringify(result)).not.toContain('\ufffd');
      });
    }

    it('valid UTF-8 (accents, emoji) comes through unchanged, and the hook keeps working', async () => {
      expect(await t.invoke(preRequest({}, 'good'), CONTEXT)).toEqual({ ok: true, response: { decision: 'deny', reason: 'fine: é 😀' } });
      expect(await t.invoke(preRequest({}, 'ok'), CONTEXT)).toEqual({ ok: true, response: { decision: 'allow' } });
    });
  });
}
