import { AppError } from '../../shared/errors';
import type { DesktopAction, DesktopActResult, DesktopDisplay, DesktopFrame } from '../../shared/protocol';
import type { DesktopDriver } from './desktop-driver';
import { checkDesktopAction, type DesktopPolicy } from './desktop-policy';
import { formatKeyChord, parseKeyChord, sameChord, type KeyName } from './key-chord';
import { mapToScreen, type ScreenPoint } from './map-coordinates';
import { typeText, typingMethod } from './type-text';

export interface ActionDeps {
  driver: DesktopDriver;
  policy: DesktopPolicy;
  /** True when the redactor would hide part of the text (card numbers, passwords, keys): typing it needs approval. */
  flagsSensitive: (text: string) => boolean;
  platform: NodeJS.Platform;
  stopChord: readonly KeyName[];
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

export interface ActionRequest {
  action: DesktopAction;
  display: DesktopDisplay;
  frame?: DesktopFrame;
  dryRun: boolean;
  approvedSensitive: boolean;
  signal: AbortSignal;
}

const DRAG_STEPS = 12;

function pointOf(request: ActionRequest, point: ScreenPoint): ScreenPoint {
  if (!request.frame) {
    throw new AppError('invalid_params', `A ${request.action.kind} needs the screenshot its coordinates refer to (frame); take a screenshot first.`);
  }
  return mapToScreen(point, request.frame, request.display);
}

const at = (p: ScreenPoint): string => `(${p.x}, ${p.y})`;

/** Says in words what an action does once its coordinates are mapped, for dry runs and for the step log. */
function describe(action: DesktopAction, points: ScreenPoint[], display: DesktopDisplay): string {
  const [first = { x: 0, y: 0 }, second = { x: 0, y: 0 }] = points;
  const on = `on display ${display.id}`;
  switch (action.kind) {
    case 'move': return `move the pointer to ${at(first)} ${on}`;
    case 'click': return `click at ${at(first)} ${on}`;
    case 'double_click': return `double-click at ${at(first)} ${on}`;
    case 'right_click': return `right-click at ${at(first)} ${on}`;
    case 'drag': return `drag from ${at(first)} to ${at(second)} ${on}`;
    case 'scroll': return `scroll ${action.direction} ${action.amount} notches at ${at(first)} ${on}`;
    case 'type': return `${typingMethod(action.text) === 'paste' ? 'paste' : 'type'} ${action.text.length} characters`;
    case 'key': return `press ${formatKeyChord(parseKeyChord(action.keys))}`;
    case 'wait': return `wait ${action.seconds} s`;
  }
}

/**
 * Performs one desktop action, or in a dry run only says what it would do. Checks come first and hold in dry runs too:
 * coordinates inside the screenshot, the blocked lists, the stop chord, and approval for text the redactor flags.
 */
export async function performAction(request: ActionRequest, deps: ActionDeps): Promise<DesktopActResult> {
  const started = deps.now();
  const { action, signal } = request;
  const points: ScreenPoint[] = [];
  if (action.kind === 'drag') points.push(pointOf(request, action.from), pointOf(request, action.to));
  else if ('x' in action) points.push(pointOf(request, action));
  if (action.kind === 'key' && sameChord(parseKeyChord(action.keys), deps.stopChord)) {
    throw new AppError('policy_denied', `${action.keys} is the user's stop hotkey; it cannot be pressed by a task.`);
  }
  if (action.kind === 'type' && !request.approvedSensitive && deps.flagsSensitive(action.text)) {
    throw new AppError('policy_denied', 'The text holds personal data (a card number, password, key or token); ask the user to approve typing it.');
  }
  // Waiting and moving the pointer send no input to any window, so they need not know which one has the focus; reading
  // the title costs a child process per action. Every action that clicks, scrolls or types still reads it first.
  const verdict = checkDesktopAction(deps.policy, action, action.kind === 'wait' || action.kind === 'move' ? undefined : await deps.driver.activeWindowTitle());
  if (!verdict.allowed) throw new AppError('policy_denied', verdict.reason);
  const description = describe(action, points, request.display);
  const screenPoint = points.at(-1);
  if (request.dryRun) {
    return { performed: false, description: `Dry run: would ${description}`, ...(screenPoint ? { screenPoint } : {}), ms: deps.now() - started };
  }
  signal.throwIfAborted();
  const typedBy = await run(action, points, request, deps);
  const past = description.replace(/^(\S+)/, (verb) => PAST[verb] ?? verb);
  return {
    performed: true,
    description: past.charAt(0).toUpperCase() + past.slice(1),
    ...(screenPoint ? { screenPoint } : {}),
    ...(typedBy ? { typedBy } : {}),
    ms: deps.now() - started,
  };
}

const PAST: Record<string, string> = {
  move: 'moved', click: 'clicked', 'double-click': 'double-clicked', 'right-click': 'right-clicked', drag: 'dragged',
  scroll: 'scrolled', type: 'typed', paste: 'pasted', press: 'pressed', wait: 'waited',
};

async function run(action: DesktopAction, points: ScreenPoint[], request: ActionRequest, deps: ActionDeps): Promise<'keys' | 'paste' | undefined> {
  const { driver } = deps;
  const [first = { x: 0, y: 0 }, second = { x: 0, y: 0 }] = points;
  switch (action.kind) {
    case 'move':
      await driver.movePointer(first);
      return undefined;
    case 'click':
    case 'double_click':
    case 'right_click':
      await driver.movePointer(first);
      await driver.click(action.kind === 'right_click' ? 'right' : 'left', action.kind === 'double_click' ? 2 : 1);
      return undefined;
    case 'drag':
      await drag(first, second, request.signal, deps);
      return undefined;
    case 'scroll':
      await driver.movePointer(first);
      await driver.scroll(action.direction, action.amount);
      return undefined;
    case 'type':
      return typeText(action.text, { driver, platform: deps.platform, signal: request.signal, sleep: deps.sleep });
    case 'key':
      await driver.pressChord(parseKeyChord(action.keys));
      return undefined;
    case 'wait':
      await deps.sleep(action.seconds * 1000, request.signal);
      return undefined;
  }
}

/** Presses at the start, moves in steps (applications see a real drag, not a jump), and always lets go. */
async function drag(from: ScreenPoint, to: ScreenPoint, signal: AbortSignal, deps: ActionDeps): Promise<void> {
  await deps.driver.movePointer(from);
  await deps.driver.pressButton('left');
  try {
    for (let step = 1; step <= DRAG_STEPS; step += 1) {
      signal.throwIfAborted();
      const x = Math.round(from.x + ((to.x - from.x) * step) / DRAG_STEPS);
      const y = Math.round(from.y + ((to.y - from.y) * step) / DRAG_STEPS);
      await deps.driver.movePointer({ x, y });
      await deps.sleep(8);
    }
  } finally {
    await deps.driver.releaseButton('left');
  }
}
