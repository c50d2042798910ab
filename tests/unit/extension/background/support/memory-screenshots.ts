import type { ScreenshotStore } from '../../../../../extension/platform/screenshot-db';
import type { StepScreenshot } from '../../../../../shared/protocol';

/** IndexedDB stand-in for step screenshots: one list per task, ordered by step as the real key range orders them. */
export function memoryScreenshots(): ScreenshotStore & { data: Map<string, StepScreenshot[]> } {
  const data = new Map<string, StepScreenshot[]>();
  return {
    data,
    save: (taskId, shot) => {
      const list = (data.get(taskId) ?? []).filter((s) => s.step !== shot.step);
      data.set(taskId, [...list, shot].sort((a, b) => a.step - b.step));
      return Promise.resolve([]);
    },
    list: (taskId) => Promise.resolve([...(data.get(taskId) ?? [])]),
    thumbnails: (taskId) => Promise.resolve([...(data.get(taskId) ?? [])]),
    get: (taskId, step) => Promise.resolve(data.get(taskId)?.find((shot) => shot.step === step)),
    delete: (taskId) => {
      data.delete(taskId);
      return Promise.resolve();
    },
  };
}
