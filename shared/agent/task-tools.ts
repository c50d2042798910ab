import type { PageView } from './build-prompt';
import { chatTools } from './chat-tools';
import { askUserTool, controlTools, updatePlanTool } from './control-tools';
import { uploadTool } from './input-tools';
import { POINT_TOOLS, screenshotTool } from './point-tools';
import type { AnyTool } from './tool';
import { fullPageTool, webTools } from './web-tools';

/**
 * The facts of a task that decide which tools its model is offered. They are read once when a run of the task starts,
 * from the task and the settings, never from the model; so the tool list (the start of every request, which a
 * provider's prompt cache serves again) is the same at every step.
 */
export interface TaskToolFacts {
  /** A web task, or a support chat (its chat tools instead of done, and the page tools for forms the chat opens). */
  flow: 'web' | 'chat';
  /** How many files the user attached to the task: the upload tool can upload those and nothing else. */
  attachedFiles: number;
  /** The model reads images, so it can be shown a screenshot and give positions on it. */
  vision: boolean;
  /** A screenshot already goes with every page (the screenshots setting, for a model that reads images). */
  screenshotsEachStep: boolean;
  pageView: PageView;
}

export interface TaskTools<E> {
  /** What the model is offered, in the order it sees them. */
  tools: AnyTool<E>[];
  /** Deputy's tools left out for this task, each with why: a call to one gets that reason back, never a crash. */
  withheld: Record<string, string>;
}

/**
 * Why a tool of the registry is not offered in a task with these facts, or null when it is. Leaving a tool out only
 * trims the request: every call, offered or not, still goes through the one policy gate, and a call to a tool left
 * out is refused before the gate with this reason.
 */
export function whyNotOffered(name: string, facts: TaskToolFacts): string | null {
  if (name === uploadTool.name && facts.attachedFiles === 0) return 'no files are attached to this task (the user attaches them when starting it)';
  if (POINT_TOOLS.has(name) || name === screenshotTool.name) {
    if (!facts.vision) return 'this model is not sent screenshots, so it has no positions to act at: act on elements by their number';
    if (name === screenshotTool.name && facts.screenshotsEachStep) return 'a screenshot already comes with every page';
  }
  if (name === fullPageTool.name) {
    if (facts.flow === 'chat') return 'a support chat is shown whole at every step';
    if (facts.pageView === 'full') return 'every page is shown whole already';
  }
  if (facts.flow === 'web' && chatTools.some((tool) => tool.name === name)) return 'this is not a support-chat task';
  if (facts.flow === 'chat' && name === 'done') return 'a support chat ends with chat_end';
  return null;
}

/** Every tool a web task or a support chat can be offered, in the order the model sees them. */
function registry<E>(flow: TaskToolFacts['flow']): AnyTool<E>[] {
  const web = webTools as AnyTool<E>[];
  if (flow === 'chat') return [...(chatTools as AnyTool<E>[]), ...web, updatePlanTool, askUserTool];
  return [...web, fullPageTool, ...controlTools<E>()];
}

/** The tools a task offers its model, decided from the task's facts; the rest of Deputy's tools with why they are not. */
export function taskTools<E>(facts: TaskToolFacts): TaskTools<E> {
  const tools = registry<E>(facts.flow).filter((tool) => whyNotOffered(tool.name, facts) === null);
  const withheld: Record<string, string> = {};
  for (const tool of [...registry<E>('web'), ...registry<E>('chat')]) {
    const why = whyNotOffered(tool.name, facts);
    if (why !== null) withheld[tool.name] = why;
  }
  return { tools, withheld };
}
