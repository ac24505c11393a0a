/**
 * The JavaScript reading of a policy's head (annotations, effect, scope) agrees with the engine's own
 * `policyToJson` on every policy it reads, and gives up on what it does not read (the engine is asked
 * then): random heads — annotations with awkward strings, every scope form, namespaced types,
 * comments and spacing — against the official engine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCedarEngine } from '../../../host/transports/cedar/engine.js';
import { readHead } from '../../../host/transports/cedar/head.js';

const engine = await loadCedarEngine();
const id = fc.stringMatching(/^[A-Za-z0-9 _./:"\\-]{0,12}$/);
const quoted = (text: string): string => JSON.stringify(text);
const type = fc.constantFrom('Agent', 'Team', 'NS::Agent', 'A::B::Workspace');
const uid = fc.tuple(type, id).map(([t, i]) => `${t}::${quoted(i)}`);
const space = fc.constantFrom(' ', '', '\n  ', ' // a comment\n ');
const principal = fc.oneof(fc.constant('principal'), uid.map((u) => `principal == ${u}`), uid.map((u) => `principal in ${u}`), type.map((t) => `principal is ${t}`), fc.tuple(type, uid).map(([t, u]) => `principal is ${t} in ${u}`));
const action = fc.oneof(fc.constant('action'), id.map((i) => `action == Action::${quoted(i)}`), id.map((i) => `action in Action::${quoted(i)}`), fc.array(id, { minLength: 1, maxLength: 3 }).map((ids) => `action in [${ids.map((i) => `Action::${quoted(i)}`).join(', ')}]`));
const resource = principal.map((p) => p.replace('principal', 'resource'));
const annotation = fc.tuple(fc.constantFrom('id', 'reason', 'note'), fc.option(fc.string({ maxLength: 20 }), { nil: undefined })).map(([name, value]) => (value === undefined ? `@${name}` : `@${name}(${quoted(value)})`));
const policy = fc
  .tuple(fc.uniqueArray(annotation, { maxLength: 3, selector: (a) => a.split('(')[0] }), fc.constantFrom('permit', 'forbid'), space, principal, action, resource, fc.constantFrom('', ' when { context.a == 1 }', ' unless { principal.x }'))
  .map(([annotations, effect, s, p, a, r, condition]) => `${annotations.join('\n')}\n${effect}${s}(${s}${p},${s}${a},${s}${r}${s})${condition};`);

describe('reading a Cedar policy\'s head', () => {
  it('agrees with policyToJson whenever it reads one, and reads the plain forms (property)', () => {
    let read = 0;
    fc.assert(
      fc.property(policy, (text) => {
        const engineJson = engine.policyToJson(text);
        if (engineJson.type !== 'success') return; // not a valid policy (a generated oddity): nothing to compare
        const head = readHead(text);
        if (head === undefined) return;
        read++;
        const { principal: p, action: a, resource: r } = engineJson.json;
        expect(head).toEqual({ effect: engineJson.json.effect, annotations: engineJson.json.annotations ?? {}, scope: { principal: p, action: a, resource: r } });
      }),
      { numRuns: 500 },
    );
    expect(read).toBeGreaterThan(300);
  });

  it('gives up on forms it does not read: slots, other escapes', () => {
    expect(readHead('permit (principal == ?principal, action, resource);')).toBeUndefined();
    expect(readHead('@reason("caf\\u{e9}")\npermit (principal, action, resource);')).toBeUndefined();
    expect(readHead('permit (principal, action, resource) when { true };')).toEqual({ effect: 'permit', annotations: {}, scope: { principal: { op: 'All' }, action: { op: 'All' }, resource: { op: 'All' } } });
  });
});
