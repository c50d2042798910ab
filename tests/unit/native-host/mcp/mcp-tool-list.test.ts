import { describe, expect, it } from 'vitest';
import { mcpToolList } from '../../../../native-host/mcp/mcp-tool-list';

const tool = (name: string) => {
  const found = mcpToolList({ shell: true, desktop: true }).find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${name} is not listed`);
  return found;
};

describe('mcpToolList: tools as an outside agent reads them', () => {
  it('offers every page tool the issue names, and shell and desktop only when allowed', () => {
    const names = mcpToolList(null).map((t) => t.name);
    for (const name of ['snapshot', 'click', 'type', 'select', 'press', 'hover', 'drag', 'scroll', 'navigate', 'back', 'tabs', 'dialog', 'upload', 'screenshot', 'find', 'wait']) {
      expect(names).toContain(`browser_${name}`);
    }
    // Besides the page tools, only the routines (which replay through the same page gate) are always offered.
    expect(names.filter((name) => !name.startsWith('browser_'))).toEqual(['list_routines', 'run_routine']);
    expect(mcpToolList({ shell: true, desktop: false }).map((t) => t.name)).toEqual(expect.arrayContaining(['shell_run', 'shell_check', 'shell_kill', 'shell_wait_for_output']));
  });

  it('words the page tools for an agent outside Deputy: uploads by path with the user approving, no "task" of its own', () => {
    const upload = tool('browser_upload');
    expect(upload.description).toContain('absolute path');
    expect(upload.description).not.toContain('attached to this task');
    expect((upload.inputSchema.properties as Record<string, { description?: string; items?: { maxLength?: number } }>).files).toMatchObject({ items: { maxLength: 4096 } });
    for (const name of ['browser_download', 'browser_tabs', 'browser_type']) expect(tool(name).description).not.toMatch(/\bthis task\b|the task's|shown in the task/);
  });

  it('hints which tools only read and which may change things', () => {
    expect(tool('browser_snapshot').annotations).toMatchObject({ readOnlyHint: true });
    expect(tool('browser_click').annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tool('browser_navigate').annotations).toMatchObject({ destructiveHint: false });
  });
});
