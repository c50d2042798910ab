import { describe, expect, it } from 'vitest';
import { keyForCharacter } from '../../../../../extension/background/input/keyboard-layout';
import {
  click,
  drag,
  pointerAfter,
  pressChord,
  typeText,
} from '../../../../../extension/background/input/trusted-input';

function recorder() {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  return {
    sent,
    send: (method: string, params: Record<string, unknown> = {}) => Promise.resolve(void sent.push({ method, params })),
  };
}

const keys = (sent: { method: string; params: Record<string, unknown> }[]) =>
  sent
    .filter((s) => s.method === 'Input.dispatchKeyEvent')
    .map((s) => {
      const { type, key, text, modifiers } = s.params as {
        type: string;
        key: string;
        text?: string;
        modifiers?: number;
      };
      return `${type}:${key}${text ? `(${text})` : ''}${modifiers ? `+${modifiers}` : ''}`;
    });

describe('trusted input', () => {
  it('clicks with its events sent together, in order, and moves the pointer only when it is not on the point already', async () => {
    const sent: string[] = [];
    const answers: (() => void)[] = [];
    // Nothing is answered until every event was sent: a click that waited for each answer would never finish.
    const send = (_method: string, params: Record<string, unknown> = {}) =>
      new Promise<void>((resolve) => {
        sent.push(`${String(params.type)}${typeof params.clickCount === 'number' ? ` ${params.clickCount}` : ''}`);
        answers.push(resolve);
        if (sent.length === expected) answers.forEach((answer) => answer());
      });
    let expected = 3;
    await click(send, { x: 5, y: 6 }, 1);
    expect(sent).toEqual(['mouseMoved', 'mousePressed 1', 'mouseReleased 1']);
    sent.length = 0;
    answers.length = 0;
    expected = 4;
    await click(send, { x: 5, y: 6 }, 2, { x: 5, y: 6 });
    expect(sent).toEqual(['mousePressed 1', 'mouseReleased 1', 'mousePressed 2', 'mouseReleased 2']);
    expect(pointerAfter({ op: 'move', at: { x: 1, y: 2 } })).toEqual({ x: 1, y: 2 });
    expect(
      pointerAfter({ op: 'press', chord: { key: 'a', ctrl: false, shift: false, alt: false, meta: false }, times: 1 }),
    ).toBeUndefined();
  });

  it('presses a chord as a keyboard does: the modifier down, the key, the modifier up, and the key types nothing', async () => {
    const r = recorder();
    await pressChord({ send: r.send, mac: false }, { key: 'a', ctrl: true, shift: false, alt: false, meta: false });
    expect(keys(r.sent)).toEqual(['rawKeyDown:Control+2', 'rawKeyDown:a+2', 'keyUp:a+2', 'keyUp:Control']);
  });

  it('presses a key several times, and Shift makes a letter a capital', async () => {
    const r = recorder();
    await pressChord(
      { send: r.send, mac: false },
      { key: 'ArrowRight', ctrl: false, shift: false, alt: false, meta: false },
      2,
    );
    await pressChord({ send: r.send, mac: false }, { key: 'b', ctrl: false, shift: true, alt: false, meta: false });
    expect(keys(r.sent)).toEqual([
      'rawKeyDown:ArrowRight',
      'keyUp:ArrowRight',
      'rawKeyDown:ArrowRight',
      'keyUp:ArrowRight',
      'rawKeyDown:Shift+8',
      'keyDown:B(B)+8',
      'keyUp:B+8',
      'keyUp:Shift',
    ]);
  });

  it('gives editing shortcuts as commands on macOS only, where Chrome does not map them itself', async () => {
    const r = recorder();
    await pressChord({ send: r.send, mac: true }, { key: 'v', ctrl: false, shift: false, alt: false, meta: true });
    expect(r.sent.find((s) => s.params.key === 'v')?.params.commands).toEqual(['paste']);
  });

  it('types keyboard characters as key presses and the rest as committed text', async () => {
    const r = recorder();
    await typeText(r.send, 'Hé!');
    expect(
      r.sent.map((s) =>
        s.method === 'Input.insertText'
          ? `insert:${String(s.params.text)}`
          : `${String(s.params.type)}:${String(s.params.key)}`,
      ),
    ).toEqual(['keyDown:H', 'keyUp:H', 'insert:é', 'keyDown:!', 'keyUp:!']);
    expect(keyForCharacter('!')).toEqual({ key: { key: '!', code: 'Digit1', keyCode: 49, text: '!' }, shift: true });
  });

  it('commits a very long text at once and keys only its last character', async () => {
    const r = recorder();
    await typeText(r.send, 'x'.repeat(1000));
    expect(r.sent.map((s) => s.method)).toEqual([
      'Input.insertText',
      'Input.dispatchKeyEvent',
      'Input.dispatchKeyEvent',
    ]);
    expect(String(r.sent[0]?.params.text)).toHaveLength(999);
  });

  it('drags with the button held in small moves, handing a native drag over as drag events when the page starts one', async () => {
    const mouse = recorder();
    expect(
      await drag(
        { send: mouse.send, sleep: () => Promise.resolve(), interceptedDrag: () => undefined, mac: false },
        { x: 0, y: 0 },
        { x: 120, y: 0 },
      ),
    ).toBe('mouse');
    const moves = mouse.sent.filter((s) => s.params.type === 'mouseMoved');
    expect(moves).toHaveLength(13);
    expect(mouse.sent.at(-2)?.params).toMatchObject({ type: 'mouseReleased', x: 120, y: 0 });
    expect(mouse.sent.at(-1)).toEqual({ method: 'Input.setInterceptDrags', params: { enabled: false } });
    const native = recorder();
    let moved = 0;
    await drag(
      {
        send: (method, params) => ((moved += params?.type === 'mouseMoved' ? 1 : 0), native.send(method, params)),
        sleep: () => Promise.resolve(),
        interceptedDrag: () => (moved > 2 ? { items: [] } : undefined),
        mac: false,
      },
      { x: 0, y: 0 },
      { x: 0, y: 90 },
    );
    expect(
      native.sent.filter((s) => s.method === 'Input.dispatchDragEvent').map((s) => [s.params.type, s.params.y]),
    ).toEqual([
      ['dragEnter', 90],
      ['dragOver', 90],
      ['drop', 90],
    ]);
  });

  it('draws a path through the points given, in order, in moves no longer than a few pixels, as a hand draws a circle', async () => {
    const mouse = recorder();
    const centre = { x: 100, y: 100 };
    const round = Array.from({ length: 17 }, (_, i) => ({
      x: centre.x + 30 * Math.cos((i * Math.PI) / 8),
      y: centre.y + 30 * Math.sin((i * Math.PI) / 8),
    }));
    const [start, ...rest] = round;
    const end = rest.pop();
    if (!start || !end) throw new Error('no circle');
    await drag(
      { send: mouse.send, sleep: () => Promise.resolve(), interceptedDrag: () => undefined, mac: false },
      start,
      end,
      rest,
    );
    const held = mouse.sent
      .filter((s) => s.params.type === 'mouseMoved' && s.params.buttons === 1)
      .map((s) => ({ x: Number(s.params.x), y: Number(s.params.y) }));
    // Every point of the path is passed through, and no move strays from the circle (a straight drag would cut across it).
    for (const point of rest) expect(held.some((m) => Math.hypot(m.x - point.x, m.y - point.y) < 1e-9)).toBe(true);
    for (const m of held) expect(Math.hypot(m.x - centre.x, m.y - centre.y)).toBeGreaterThan(29);
    expect(mouse.sent.find((s) => s.params.type === 'mousePressed')?.params).toMatchObject({ x: start.x, y: start.y });
    expect(mouse.sent.at(-2)?.params).toMatchObject({ type: 'mouseReleased', x: end.x, y: end.y });
  });
});
