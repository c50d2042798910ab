import { describe, expect, it } from 'vitest';
import { CommandOutput } from '../../../../native-host/shell/command-output';
import { TerminalText, renderLine } from '../../../../native-host/shell/terminal-text';

const b = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('terminal text', () => {
  it('renders a line as a terminal shows it: colours and titles gone, carriage returns and backspaces applied', () => {
    expect(renderLine('\u001b[1;31mERROR\u001b[0m: disk \u001b[32mok\u001b[0m')).toBe('ERROR: disk ok');
    expect(renderLine('\u001b]0;my title\u0007prompt')).toBe('prompt');
    expect(renderLine('  10%\r  55%\r100% done')).toBe('100% done');
    expect(renderLine('abc\bd')).toBe('abd');
    expect(renderLine('tab\there\r')).toBe('tab\there');
    expect(renderLine('bell\u0007 and null\u0000 gone')).toBe('bell and null gone');
  });

  it('emits whole lines, keeps a multibyte character split across chunks, and shows the line still being written', () => {
    const lines: string[] = [];
    const text = new TerminalText((batch) => lines.push(...batch));
    const euro = b('price: 5 €\nnext');
    text.push(euro.subarray(0, 11));
    text.push(euro.subarray(11));
    expect(lines).toEqual(['price: 5 €']);
    expect(text.partial()).toBe('next');
    text.push(b(' line\r\n[sudo] password for ada: '));
    expect(lines).toEqual(['price: 5 €', 'next line']);
    expect(text.partial()).toBe('[sudo] password for ada: ');
    text.end();
    expect(lines.at(-1)).toBe('[sudo] password for ada: ');
  });

  it('replaces binary data by one line saying how much was left out, and cuts endless lines', () => {
    const lines: string[] = [];
    const text = new TerminalText((batch) => lines.push(...batch));
    text.push(b('before\n'));
    const binary = Buffer.alloc(4096);
    for (let i = 0; i < binary.length; i += 1) binary[i] = (i * 37) % 256;
    text.push(binary);
    text.push(binary);
    text.push(b('after\n'));
    expect(lines).toEqual(['before', '[binary output: 8.0 KB not shown]', 'after']);
    const long = new TerminalText((batch) => lines.push(...batch));
    long.push(b('x'.repeat(200_000)));
    expect(lines.slice(3).map((l) => l.length)).toEqual([65_536, 65_536, 65_536]);
  });
});

describe('command output', () => {
  const make = (limits = { memoryChars: 1_000_000, headChars: 40, tailChars: 60 }) => {
    const logged: string[] = [];
    const output = new CommandOutput((text) => text.replace(/sk-[a-z0-9]+/g, '{{redacted_key_1}}'), (text) => logged.push(text), limits);
    return { output, logged };
  };

  it('delivers each piece of output exactly once, a partial line included, and never repeats it when it completes', () => {
    const { output, logged } = make();
    output.push(b('one\ntwo\nPassword: '));
    expect(output.take().text).toBe('one\ntwo\nPassword: ');
    expect(output.hasNew()).toBe(false);
    expect(output.take()).toMatchObject({ text: '', fresh: false });
    output.push(b('accepted\nthree\n'));
    expect(output.take().text).toBe('accepted\nthree\n');
    expect(logged.join('')).toBe('one\ntwo\nPassword: accepted\nthree\n');
  });

  it('redacts before anything keeps the text, and shows a long delivery by its head and tail with what was left out', () => {
    const { output, logged } = make();
    output.push(b('key sk-abc123\n'));
    expect(logged).toEqual(['key {{redacted_key_1}}\n']);
    output.take();
    output.push(b(Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') + '\n'));
    const delivery = output.take();
    expect(delivery.text.startsWith('line 0\nline 1\nline 2\nline 3\nline 4')).toBe(true);
    expect(delivery.text).toMatch(/\[… 8\d lines \(\d+ bytes\) not shown: they are in the session log, where search_history finds them …\]/);
    expect(delivery.text.endsWith('line 98\nline 99\n')).toBe(true);
    expect(delivery.omittedLines).toBeGreaterThan(80);
  });

  it('keeps only the latest text in memory and says how much of the undelivered output is only in the log', () => {
    const { output, logged } = make({ memoryChars: 1000, headChars: 100, tailChars: 100 });
    for (let i = 0; i < 50; i += 1) output.push(b(`${'y'.repeat(99)}\n`));
    expect(logged.join('').length).toBe(5000);
    const delivery = output.take();
    expect(delivery.omittedChars).toBeGreaterThan(4000);
    expect(delivery.omittedLines).toBeGreaterThan(40);
    expect(output.tail(150)).toHaveLength(150);
    output.push(b('zz\nmatch me'));
    expect(output.pending()).toBe('zz\nmatch me');
    expect(output.take().text).toBe('zz\nmatch me');
  });
});
