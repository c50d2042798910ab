import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { SEVERITIES, type Finding } from './finding';
import type { Judgement } from './judge-document';
import { renderPages, type RenderTools } from './render-pages';

export interface ReportFiles {
  html: string;
  json: string;
  /** Whether the pages were drawn side by side; when not, `imagesNote` says why. */
  images: boolean;
  imagesNote?: string;
}

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

function findingRow(finding: Finding): string {
  const anchor =
    finding.location.slide !== undefined
      ? `<a href="#page-${finding.location.slide}">${escape(finding.location.label)}</a>`
      : escape(finding.location.label);
  return `<tr class="${finding.severity}"><td>${finding.severity}</td><td>${anchor}</td><td>${escape(finding.message)}<div class="rule">${escape(finding.rule)}</div></td><td>${escape(finding.expected)}</td><td>${escape(finding.actual)}</td><td>${escape(finding.fix)}</td></tr>`;
}

function pagesTable(output: string[], reference: string[], judgement: Judgement): string {
  const rows: string[] = [];
  const bySlide = new Map<number, number>();
  for (const finding of judgement.findings)
    if (finding.location.slide !== undefined)
      bySlide.set(finding.location.slide, (bySlide.get(finding.location.slide) ?? 0) + 1);
  for (let index = 0; index < Math.max(output.length, reference.length); index += 1) {
    const cell = (list: string[], label: string): string => {
      const page = list[index];
      return page
        ? `<img src="${escape(basename(page))}" alt="${label} page ${index + 1}">`
        : `<div class="none">no page</div>`;
    };
    const count = judgement.kind === 'pptx' ? bySlide.get(index + 1) : undefined;
    rows.push(
      `<tr id="page-${index + 1}"><th>${index + 1}${count ? `<div class="count">${count} finding${count === 1 ? '' : 's'}</div>` : ''}</th><td>${cell(output, 'output')}</td><td>${cell(reference, 'reference')}</td></tr>`,
    );
  }
  return `<table class="pages"><tr><th></th><th>Output</th><th>Reference</th></tr>${rows.join('')}</table>`;
}

/**
 * Writes `report.html` and `findings.json` into `dir`: the summary, the findings by severity, and, where LibreOffice
 * can draw them, the output's and the reference's pages side by side. Every text from the documents is escaped.
 */
export async function writeReport(
  judgement: Judgement,
  dir: string,
  tools: RenderTools | undefined,
  options: { maxPages?: number } = {},
): Promise<ReportFiles> {
  let images = false;
  let imagesNote: string | undefined;
  let pages = '';
  if (!tools) imagesNote = 'Page images were not requested (--no-images).';
  else if (!judgement.template) imagesNote = 'No template was given, so there is nothing to show beside the output.';
  else {
    const output = await renderPages(judgement.output, dir, 'output', {
      tools,
      ...(options.maxPages ? { maxPages: options.maxPages } : {}),
    });
    const reference = output.ok
      ? await renderPages(judgement.template, dir, 'reference', {
          tools,
          ...(options.maxPages ? { maxPages: options.maxPages } : {}),
        })
      : output;
    if (output.ok && reference.ok) {
      images = true;
      pages = pagesTable(output.pages, reference.pages, judgement);
    } else imagesNote = `Page images skipped: ${output.ok ? (reference.ok ? '' : reference.reason) : output.reason}.`;
  }
  const sections = SEVERITIES.map((severity) => {
    const items = judgement.findings.filter((finding) => finding.severity === severity);
    return items.length === 0
      ? ''
      : `<h2>${severity} (${items.length})</h2><table class="findings"><tr><th>Severity</th><th>Where</th><th>What</th><th>Expected</th><th>Actual</th><th>Fix</th></tr>${items.map(findingRow).join('')}</table>`;
  }).join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Deputy compare: ${escape(basename(judgement.output))}</title><style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}h2{font-size:16px;text-transform:capitalize;margin-top:28px}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:6px;vertical-align:top;text-align:left}
tr.critical td:first-child{background:#b00020;color:#fff}tr.high td:first-child{background:#e65100;color:#fff}tr.medium td:first-child{background:#f9a825}
.rule{color:#777;font-size:12px}.summary{font-weight:600}.note{color:#555;background:#f5f5f5;padding:8px}
.pages img{max-width:100%;border:1px solid #ccc}.pages td{width:48%}.count{color:#b00020;font-size:12px}.none{color:#999}
</style></head><body><h1>Deputy compare</h1><p>Output <code>${escape(judgement.output)}</code>${judgement.template ? ` against the template <code>${escape(judgement.template)}</code>` : ''}</p>
<p class="summary">${escape(judgement.summary)}</p><p>${judgement.counts.critical} critical, ${judgement.counts.high} high, ${judgement.counts.medium} medium${judgement.hollow ? '; the output is hollow' : ''}</p>
${judgement.notes ? `<h2>Reference notes</h2><p>${escape(judgement.notes)}</p>` : ''}${sections}<h2>Pages</h2>${imagesNote ? `<p class="note">${escape(imagesNote)}</p>` : ''}${pages}</body></html>`;
  const htmlPath = join(dir, 'report.html');
  const jsonPath = join(dir, 'findings.json');
  const { rules: _rules, ...plain } = judgement;
  await writeFile(htmlPath, html);
  await writeFile(jsonPath, `${JSON.stringify(plain, null, 2)}\n`);
  return { html: htmlPath, json: jsonPath, images, ...(imagesNote ? { imagesNote } : {}) };
}
