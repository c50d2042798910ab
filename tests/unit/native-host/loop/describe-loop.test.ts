import { describe, expect, it } from 'vitest';
import { proposeTool } from '../../../../native-host/loop/describe-loop';
import { draftFields, draftFieldsText } from '../../../../native-host/loop/loop-draft-fields';

describe('describe a loop', () => {
  it("the tool's schema is the loop file's, without repo, and a mailbox is only ever the user's own", () => {
    const schema = proposeTool().parameters as { properties: Record<string, { anyOf?: Array<{ properties?: Record<string, unknown> }> }>; required?: string[] };
    expect(Object.keys(schema.properties)).not.toContain('repo');
    expect(schema.required ?? []).not.toContain('repo');
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['check', 'trigger', 'output', 'document', 'allowedPaths', 'budgets']));
    const mail = schema.properties.output?.anyOf?.find((variant) => variant.properties && 'mail' in variant.properties);
    expect(mail?.properties?.mail).toMatchObject({ const: true });
    expect(JSON.stringify(mail)).not.toContain('password');
  });

  it('shows every field of a draft, nested ones by their path, lists joined', () => {
    const fields = draftFields({ trigger: { url: 'https://jobs.test/run', method: 'POST', form: { client: 'acme' } }, output: { folder: 'out', pattern: '*.xlsx' }, protectedPaths: ['db/**', 'infra/**'], deploy: { healthUrl: 'https://svc.test/health' } });
    expect(fields.map((item) => [item.label, item.field, item.value])).toEqual([
      ['Starts the job', 'trigger.url', 'https://jobs.test/run'],
      ['Starts the job', 'trigger.method', 'POST'],
      ['Starts the job', 'trigger.form.client', 'acme'],
      ['Takes the output', 'output.folder', 'out'],
      ['Takes the output', 'output.pattern', '*.xlsx'],
      ['The fixer never touches', 'protectedPaths', 'db/**, infra/**'],
      ['After each push', 'deploy.healthUrl', 'https://svc.test/health'],
    ]);
    expect(draftFieldsText(fields).split('\n')[5]).toBe('  The fixer never touches  protectedPaths       db/**, infra/**');
  });
});
