import { describeHostSurfaces } from './support/host-surface-cases';

// A mail's attachment (fetched from a Dovecot mailbox by `deputy mail wait`) and a document on disk carry the
// attacker's text to a shell task's model (tests/fixtures/attacks/host-scenarios.ts); safety-host-surfaces.test.ts has
// the MCP and shell output surfaces.
describeHostSurfaces(['mail attachment', 'document']);
