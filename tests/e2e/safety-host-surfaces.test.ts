import { describeHostSurfaces } from './support/host-surface-cases';

// An MCP server's tool result and a command's output carry the attacker's text to a shell task's model
// (tests/fixtures/attacks/host-scenarios.ts); the mail and document surfaces are in safety-host-files.test.ts.
describeHostSurfaces(['MCP result', 'shell output']);
