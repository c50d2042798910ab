import { describe, expect, it } from 'vitest';
import type { FrameProbe } from '../../../../../shared/protocol';
import { decideDetection } from '../../../../../extension/content/chat/detection-verdict';
import { VENDOR_PROFILES } from '../../../../../extension/content/chat/vendor-profiles';

function probe(url: string, partial: Partial<FrameProbe> = {}): FrameProbe {
  return {
    url,
    top: url.endsWith('/shop'),
    vendors: [],
    generic: null,
    scriptHosts: [],
    checked: { selectors: 40, shadowRoots: 0, elements: 100 },
    ...partial,
  };
}

describe('decideDetection', () => {
  it('names the vendor and the child frame that holds its UI', () => {
    const detection = decideDetection(
      VENDOR_PROFILES,
      [
        {
          frameId: 0,
          probe: probe('http://shop.test/shop', {
            vendors: [{ vendor: 'drift', evidence: [{ layer: 'marker', detail: '#drift-widget-container' }, { layer: 'script', detail: 'script from js.driftt.com' }], ui: false, childFrames: [7] }],
          }),
        },
        {
          frameId: 7,
          probe: probe('http://drift.test/frame', { vendors: [{ vendor: 'drift', evidence: [{ layer: 'structure', detail: '.drift-widget-chat-wrapper' }], ui: true, childFrames: [] }] }),
        },
      ],
      [{ frameId: 0, found: ['drift'] }],
    );
    expect(detection).toMatchObject({ found: true, vendor: 'drift', frameId: 7, frameUrl: 'http://drift.test/frame' });
    expect(detection.confidence).toBeGreaterThan(0.9);
    expect(detection.evidence.map((item) => `${item.frameId}:${item.layer}`)).toEqual(['0:marker', '0:script', '7:structure', '0:global']);
    expect(detection.summary).toBe(`Drift chat found in frame 7 (http://drift.test/frame), confidence ${detection.confidence}`);
  });

  it('points at the frame with the launcher while the widget is closed', () => {
    const detection = decideDetection(
      VENDOR_PROFILES,
      [{ frameId: 0, probe: probe('http://shop.test/shop', { vendors: [{ vendor: 'crisp', evidence: [{ layer: 'marker', detail: '.crisp-client' }], ui: false, childFrames: [] }] }) }],
      [{ frameId: 0, found: ['$crisp', 'CRISP_WEBSITE_ID'] }],
    );
    expect(detection).toMatchObject({ found: true, vendor: 'crisp', frameId: 0 });
  });

  it('tells the two Zendesk generations apart by their frames', () => {
    const detection = decideDetection(
      VENDOR_PROFILES,
      [
        {
          frameId: 0,
          probe: probe('http://shop.test/shop', {
            vendors: [
              { vendor: 'zendesk-classic', evidence: [{ layer: 'script', detail: 'script from static.zdassets.com' }], ui: false, childFrames: [] },
              {
                vendor: 'zendesk-messaging',
                evidence: [{ layer: 'script', detail: 'script from static.zdassets.com' }, { layer: 'frame', detail: 'iframe[title="Messaging window"]' }],
                ui: false,
                childFrames: [3],
              },
            ],
          }),
        },
      ],
      [{ frameId: 0, found: ['zE'] }],
    );
    expect(detection.vendor).toBe('zendesk-messaging');
    expect(detection.alternatives.map((item) => item.vendor)).toEqual(['zendesk-classic']);
  });

  it('falls back to the structural finder when no vendor is seen', () => {
    const detection = decideDetection(
      VENDOR_PROFILES,
      [
        { frameId: 0, probe: probe('http://shop.test/shop', { generic: { score: 0.5, reasons: ['composer', 'message list'] } }) },
        { frameId: 4, probe: probe('http://help.test/chat', { generic: { score: 0.8, reasons: ['composer', 'message list', 'send control'] } }) },
      ],
      [],
    );
    expect(detection).toMatchObject({ found: true, vendor: 'generic', frameId: 4, confidence: 0.8 });
    expect(detection.evidence.map((item) => item.detail)).toEqual(['composer', 'message list', 'send control']);
  });

  it('says what it checked when there is no chat, including a hint too weak to act on', () => {
    const detection = decideDetection(
      VENDOR_PROFILES,
      [
        { frameId: 0, probe: probe('http://shop.test/shop', { vendors: [{ vendor: 'olark', evidence: [{ layer: 'structure', detail: '.olark-chat-window' }], ui: true, childFrames: [] }] }) },
        { frameId: 2, probe: probe('http://ads.test/x', { generic: { score: 0.5, reasons: ['composer', 'message list'] } }) },
      ],
      [{ frameId: 0, found: [] }],
    );
    expect(detection.found).toBe(false);
    expect(detection.vendor).toBeNull();
    expect(detection.frameId).toBeNull();
    expect(detection.summary).toMatch(/^No chat widget found on this page: checked 2 frames for 17 vendors/);
    expect(detection.summary).toContain('The strongest hint was olark at confidence 0.4, too weak to act on.');
  });
});
