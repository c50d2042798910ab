import { describe, expect, it } from 'vitest';
import { typingMode } from '../../../../../extension/background/input/typing-mode';

/** A debugger session over a chain of nodes, each with the listener types the page put on it. */
function session(chain: { description: string; listeners: string[] }[] | null, fail?: string) {
  const calls: string[] = [];
  const send = (method: string, params?: Record<string, unknown>): Promise<unknown> => {
    calls.push(method);
    if (fail && method === fail) return Promise.reject(new Error('Target closed'));
    if (method === 'Runtime.evaluate') return Promise.resolve({ result: chain ? { objectId: 'chain', subtype: 'array' } : { subtype: 'null' } });
    if (method === 'Runtime.getProperties') {
      return Promise.resolve({ result: [...(chain ?? []).map((node, i) => ({ name: String(i), value: { objectId: `node-${i}`, description: node.description } })), { name: 'length', value: {} }] });
    }
    if (method === 'DOMDebugger.getEventListeners') {
      const index = Number(String(params?.objectId).replace('node-', ''));
      return Promise.resolve({ listeners: (chain?.[index]?.listeners ?? []).map((type) => ({ type })) });
    }
    return Promise.resolve({});
  };
  return { send, calls };
}

describe('how text is typed into the focused field', () => {
  it('inserts it at once where no key listener sits on the field, its ancestors, document or window', async () => {
    const { send, calls } = session([{ description: 'input#q', listeners: ['input', 'focus'] }, { description: 'form', listeners: ['submit'] }, { description: 'Window', listeners: ['load'] }]);
    expect(await typingMode(send)).toEqual({ keys: false, note: 'as one inserted text: the page has no key handlers on the field' });
    expect(calls.at(-1)).toBe('Runtime.releaseObjectGroup');
  });

  // Wherever the page put a key handler, and whichever key event it is, the text goes key by key.
  const places = ['input#q', 'div#app', '#document', 'Window'];
  for (const type of ['keydown', 'keypress', 'keyup']) {
    for (const [at, place] of places.entries()) {
      it(`types key by key with a ${type} listener on ${place}`, async () => {
        const chain = places.map((description, i) => ({ description, listeners: i === at ? ['click', type] : ['click'] }));
        expect(await typingMode(session(chain).send)).toEqual({ keys: true, note: `key by key: the page listens for ${type} on ${place}` });
      });
    }
  }

  it('types key by key where the field cannot be looked into (another site\'s frame) or the debugger fails', async () => {
    expect((await typingMode(session(null).send)).note).toMatch(/^key by key: the field is in a frame of another site/);
    const failing = await typingMode(session([{ description: 'input', listeners: [] }], 'DOMDebugger.getEventListeners').send);
    expect(failing).toMatchObject({ keys: true });
    expect(failing.note).toMatch(/could not be checked \(Error: Target closed\)/);
  });
});
