import { describe, expect, it } from 'vitest';
import { hooksJsonSchema } from '../../host/config/index.js';

/** The operations keys are in the JSON Schema editors read (generated from the zod schema). */
describe('hooks.schema.json: operations keys', () => {
  const schema = hooksJsonSchema() as {
    properties: Record<string, { properties?: Record<string, unknown> }>;
  };
  const hookVariants = (schema.properties['hooks'] as unknown as { items: { anyOf: Array<{ properties: Record<string, { enum?: unknown; pattern?: unknown }> }> } }).items.anyOf;

  it('has budget_ms per event, audit and audit_payloads at the top level', () => {
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['budget_ms', 'audit', 'audit_payloads']));
    expect(Object.keys(schema.properties['budget_ms']?.properties ?? {})).toEqual(['pre_tool_use', 'post_tool_use']);
  });

  it('has sha256 (64 hex digits) and mode (enforce | shadow) on every kind of hook', () => {
    expect(hookVariants).toHaveLength(4);
    for (const variant of hookVariants) {
      expect(variant.properties['sha256']?.pattern).toBe('^[0-9a-fA-F]{64}$');
      expect(variant.properties['mode']?.enum).toEqual(['enforce', 'shadow']);
    }
  });
});
