import type { Settings } from '../../shared/protocol';
import { ModeSwitch } from './mode-switch';

/** The one line that registers Deputy in Claude Code; the README has Cursor's and Codex's. */
export const MCP_ADD_COMMAND = 'claude mcp add deputy -- deputy mcp';

/** Settings for agents connected over MCP: off by default; the shell and desktop each need their own yes. */
export function McpSettingsFields(props: { value: Settings['mcp']; onChange: (value: Settings['mcp']) => void }) {
  const { value } = props;
  const edit = (change: Partial<Settings['mcp']>): void => props.onChange({ ...value, ...change });
  return (
    <fieldset class="card" data-testid="mcp-settings">
      <legend class="section-title">Connected agents (MCP)</legend>
      <label class="check">
        <input type="checkbox" data-testid="mcp-enabled" checked={value.enabled} onChange={(e) => edit({ enabled: e.currentTarget.checked })} />
        Let other agents use Deputy
      </label>
      <p class="hint">
        Coding agents such as Claude Code, Cursor or Codex can then use this browser through Deputy, inside the same limits as Deputy's own tasks. Register it once with{' '}
        <code data-testid="mcp-add-command">{MCP_ADD_COMMAND}</code>; the Agents tab shows what they do, with Stop.
      </p>
      {value.enabled ? (
        <>
          <div class="field">
            <span class="field__label">Their mode</span>
            <ModeSwitch mode={value.mode} name="mcp-mode" onChange={(mode) => edit({ mode })} />
          </div>
          <label class="check">
            <input type="checkbox" data-testid="mcp-shell" checked={value.shell} onChange={(e) => edit({ shell: e.currentTarget.checked })} />
            Allow shell commands (each asks you first unless your shell rules allow it)
          </label>
          <label class="check">
            <input type="checkbox" data-testid="mcp-desktop" checked={value.desktop} onChange={(e) => edit({ desktop: e.currentTarget.checked })} />
            Allow desktop control (screenshots, mouse and keyboard)
          </label>
        </>
      ) : null}
    </fieldset>
  );
}
