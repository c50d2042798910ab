import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { FailureItem } from '../../shared/protocol/loop-protocol';

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  isArray: (name) => ['testsuite', 'testcase', 'failure', 'error'].includes(name),
});

const str = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

function collectSuites(node: unknown, out: Node[]): void {
  if (typeof node !== 'object' || node === null) return;
  const record = node as Node;
  for (const suite of (record.testsuite as Node[] | undefined) ?? []) {
    out.push(suite);
    collectSuites(suite, out);
  }
}

/**
 * Failure items from a JUnit XML report (the format nearly every runner can write). A <failure> is an assertion that
 * failed; an <error> is a test that could not run, which the prompt lists first.
 */
export function parseJunitXml(xml: string): FailureItem[] {
  // The parser is lenient with a report cut short (a runner that crashed mid-write); the validator is not.
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    return [{ id: 'junit', message: `The JUnit report is not valid XML (${valid.err.msg}, line ${valid.err.line}); its start: ${xml.slice(0, 300)}`, severity: 'error' }];
  }
  const doc = parser.parse(xml) as Node;
  const suites: Node[] = [];
  collectSuites(doc.testsuites ?? doc, suites);
  const items: FailureItem[] = [];
  for (const suite of suites) {
    for (const testcase of (suite.testcase as Node[] | undefined) ?? []) {
      const name = [str(testcase['@_classname']), str(testcase['@_name'])].filter(Boolean).join(' > ');
      const file = str(testcase['@_file']) || str(suite['@_file']) || undefined;
      for (const [kind, severity] of [['error', 'error'], ['failure', 'failure']] as const) {
        for (const entry of (testcase[kind] as unknown[] | undefined) ?? []) {
          const node = typeof entry === 'object' && entry !== null ? (entry as Node) : { '#text': entry };
          const message = str(node['@_message']) || str(node['#text']).trim().split('\n')[0] || kind;
          items.push({ id: name || str(suite['@_name']), message: message.slice(0, 2000), severity, ...(file ? { file } : {}) });
        }
      }
    }
  }
  return items;
}
