import { describe, expect, it } from 'vitest';
import { describeTree, processKind, processTree } from '../../../../scripts/bench/process-tree';

describe('processKind', () => {
  it('names Chromium children by type, a utility by its service, a renderer by whether it hosts an extension', () => {
    // Chromium rewrites its children's command lines into one string, so they arrive as one argument.
    expect(processKind(['/usr/lib/chromium/chromium --type=renderer --extension-process --lang=en-US'])).toBe('renderer (extension)');
    expect(processKind(['/usr/lib/chromium/chromium --type=renderer --renderer-client-id=5'])).toBe('renderer');
    expect(processKind(['/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en-US'])).toBe('utility (NetworkService)');
    expect(processKind(['/usr/lib/chromium/chromium --type=gpu-process'])).toBe('gpu-process');
    expect(processKind(['/usr/lib/chromium/chromium', '--headless=new', '--remote-debugging-pipe'])).toBe('browser');
  });

  it('names a Node process after its script, anything else after its executable', () => {
    expect(processKind(['/usr/bin/node', '--experimental-websocket', '/tmp/x/stagehand-peer.mjs', 'a'])).toBe('node x/stagehand-peer.mjs');
    expect(processKind(['/usr/bin/python3', 'host.py'])).toBe('python3');
  });
});

describe('describeTree', () => {
  it('groups by kind, largest first, with counts', () => {
    const text = describeTree([
      { pid: 1, kind: 'browser', rssKb: 200 * 1024 },
      { pid: 2, kind: 'renderer', rssKb: 150 * 1024 },
      { pid: 3, kind: 'renderer', rssKb: 100 * 1024 },
      { pid: 4, kind: 'gpu-process', rssKb: 80 * 1024 },
    ]);
    expect(text).toBe('2x renderer 250 MB, browser 200 MB, gpu-process 80 MB');
  });
});

describe('processTree', () => {
  it('finds this process with its resident memory', async () => {
    const tree = await processTree(process.pid);
    const self = tree.find((p) => p.pid === process.pid);
    expect(self?.kind).toMatch(/^node/);
    expect(self?.rssKb).toBeGreaterThan(0);
  });
});
