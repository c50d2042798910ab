import type { RiskClass } from './risk-class';
import type { PageLookup } from './tool';

/** What the gate needs to judge an input tool beyond its declared class: labels to read, classes to add. */
export interface InputRisks {
  /** Page text to judge as the label of a control would be judged ("Are you sure you want to pay $499?"). */
  labels: string[];
  classes: { risk: RiskClass; reason: string }[];
}

/**
 * The facts behind the input tools, for the policy gate. Accepting a dialog is judged as the action that opened it:
 * its question and the element whose action opened it are read as that element's label would be, so a confirm that
 * asks about paying asks the user, and accepting a "leave this page?" is leaving the page. Keeping a downloaded program
 * is a class of its own that always asks. Dismissing a dialog or discarding a download changes nothing worth asking.
 */
export function inputRisks(tool: string, args: Record<string, unknown>, page: PageLookup): InputRisks {
  const out: InputRisks = { labels: [], classes: [] };
  if (tool === 'dialog' && args.action === 'accept' && page.dialog) {
    out.labels.push(page.dialog.message);
    if (page.dialog.causedBy?.name) out.labels.push(page.dialog.causedBy.name);
    if (page.dialog.type === 'beforeunload') out.classes.push({ risk: 'navigate', reason: 'it leaves the page, which warns that changes may not be saved' });
  }
  if (tool === 'download' && args.action === 'keep') {
    const download = page.downloads?.find((d) => d.id === args.id);
    if (download?.executable) out.classes.push({ risk: 'program', reason: `it keeps a program (${download.name}) on this computer` });
  }
  return out;
}
