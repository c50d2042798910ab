import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import { Response, UiChannel } from '../../shared/protocol';
import { uiCallSource } from '../browser/browser-form-filler';
import { launchWithExtension, type LaunchOptions } from '../browser/launch-browser';
import { ProfileInUseError } from '../browser/profile-lock';
import type { ScheduleBrowser } from './run-due';

const CONTROL_PAGE = 'extension/sidepanel/index.html';

/**
 * Starts Chromium headless on the user's own profile (where the extension keeps the schedules, the routines, the
 * personal data a secret's placeholder names, and History) with the built extension, and talks to its background over
 * the "ui" channel from an extension page, as `npm run task` does. A profile the browser holds open is refused with a
 * 'busy' error: the open browser's extension runs the schedules itself.
 */
export async function openScheduleBrowser(options: { profile: string; extensionDir: string; launch?: LaunchOptions }): Promise<ScheduleBrowser> {
  if (!existsSync(join(options.extensionDir, 'manifest.json'))) {
    throw new AppError('unavailable', `Deputy's extension is not built in ${options.extensionDir}: run npm run build.`);
  }
  if (!existsSync(options.profile)) {
    throw new AppError('bad_config', `The browser profile ${options.profile} does not exist: give --profile the folder your browser keeps its profile in (chrome://version shows it as "Profile Path", without its last part).`);
  }
  let ext;
  try {
    ext = await launchWithExtension({ ...options.launch, headless: true, userDataDir: resolve(options.profile), extensionDir: options.extensionDir });
  } catch (error) {
    if (error instanceof ProfileInUseError) throw new AppError('busy', `The browser is open on ${options.profile}.`);
    throw new AppError('unavailable', `No browser could be started for the scheduled runs: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  try {
    await ext.worker();
    const page = await ext.openExtensionPage(CONTROL_PAGE);
    return {
      call: async (method, params) => {
        const reply = Response.safeParse(await page.evaluate(uiCallSource(method, params)));
        if (!reply.success) throw new AppError('bad_reply', `The extension gave no readable answer to ${method}`);
        if (!reply.data.ok) throw AppError.fromShape(reply.data.error);
        return UiChannel.methods[method].result.parse(reply.data.result) as never;
      },
      close: () => ext.close(),
    };
  } catch (error) {
    await ext.close();
    throw error;
  }
}
