import type { Provider } from '../../../shared/agent/providers/provider';
import type { RoutineRun } from '../../../shared/routines/routine';
import type { AnyTool } from '../../../shared/agent/tool';
import type { Logger } from '../../../shared/logger';
import type { ChatFacts, Flow, Settings, TaskFileInput, TaskMode, TaskRecord, TaskThinking } from '../../../shared/protocol';
import type { ChatCaseEnvironment } from '../chat/chat-case-environment';
import type { TabEnvironment } from '../page/tab-environment';
import type { SettingsStore } from '../stores/settings-store';
import type { FoundSecrets } from './found-secrets';
import type { TaskTabPorts } from './refind-task-tab';
import type { TaskStore } from './task-store';

/** What the task runner is given, and what its parts (approvals, restart, the agent run) share. */

export interface TaskRunnerDeps {
  tasks: TaskStore;
  secrets: FoundSecrets;
  settings: SettingsStore;
  /** The tab the task starts on: its URL names the task's site. */
  tabUrl: (tabId: number) => Promise<string | undefined>;
  /** The task's tab environment: its input goes through the task's debugger attachment, its uploads take its files, and
   * its requests pass the task's egress guard. */
  environment: (tabId: number, task: Pick<TaskRecord, 'id' | 'files'>) => TabEnvironment;
  /** A support-chat case on the tab: the chat and the page around it. */
  chatEnvironment?: (tabId: number, task: Pick<TaskRecord, 'id' | 'files' | 'text' | 'facts'>) => ChatCaseEnvironment;
  /** Ends a task's egress guard (its browser rules) once the task stops running here; keeps only the listed tasks'. */
  egress?: { end(taskId: string): Promise<void>; retain(taskIds: readonly string[]): Promise<void> };
  provider: (settings: NonNullable<Settings['provider']>) => Provider;
  now: () => number;
  newId: () => string;
  log: Logger;
  /** Every change to a task, for the side panel, the popup and the toolbar badge. */
  onUpdate: (record: TaskRecord) => void;
  /** This browser session's id: it lives in session storage, so a browser restart gives a new one. */
  browserSession: () => Promise<string>;
  /** Every open tab, and opening one: a task from before a browser restart finds its page again through these. */
  tabs: TaskTabPorts;
  /** How long a restarted browser may take to restore its tabs before a task's page is opened anew; 2 s by default. */
  restoreGraceMs?: number;
  /** The model's text while it writes, for a live view; never stored. */
  onThinking?: (thinking: TaskThinking) => void;
  /** Tools of the user's MCP servers (through the host), for web tasks; none when the host cannot be reached. */
  externalTools?: () => Promise<AnyTool<TabEnvironment>[]>;
  /** Keeps the bytes of files chosen in the side panel while their task runs; returns the id they are kept under. */
  keepFile?: (taskId: string, name: string, base64: string) => Promise<string>;
}

export interface StartTask {
  tabId: number;
  text: string;
  mode?: TaskMode | undefined;
  flow: Flow;
  /** For a support chat: the facts Deputy may share with support. */
  facts?: ChatFacts | undefined;
  /** An address to open in the tab before the task looks at it. */
  url?: string | undefined;
  /** Files the user attached for the upload tool. */
  files?: TaskFileInput[] | undefined;
  /** A routine's replay: its steps answer in the model's place (see routines/). */
  routine?: RoutineRun | undefined;
  /** The replay's plain parameter values, and its secret ones (these go to the task's vault only). */
  params?: Record<string, string> | undefined;
  secrets?: Record<string, string> | undefined;
  /** Started by a schedule: its id and the cost cap of one run. */
  schedule?: { id: string; costCapUsd: number } | undefined;
}

/** What the runner's parts share: its deps, and the one way they change a task (saved, stamped, sent to the panel). */
export interface TaskCore {
  readonly deps: TaskRunnerDeps;
  change(taskId: string, mutate: (record: TaskRecord) => TaskRecord): Promise<TaskRecord | undefined>;
}
