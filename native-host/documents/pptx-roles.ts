import type { Shape } from './document-model';
import { EMU_PER_INCH } from './text-fit';

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;
const sizeOf = (shape: Shape): number => Math.max(0, ...shape.paragraphs.map((paragraph) => paragraph.style.size ?? 0));
const hasText = (shape: Shape): boolean => shape.kind === 'text' && shape.text.trim() !== '';

/**
 * Gives each shape the role a reader sees it play. Placeholders say it themselves; decks drawn with free text boxes
 * (as pptxgenjs services often do) are read by name ("Title", "Subtitle"), then by look: the largest short text
 * near the top is the title, a smaller short text just below it the subtitle, small text along the bottom a footer.
 */
export function assignRoles(shapes: Shape[], height: number): void {
  for (const shape of shapes) {
    if (shape.inherited) shape.role = 'decoration';
    else if (shape.kind === 'line' || shape.kind === 'graphic') shape.role = 'decoration';
    else if (shape.placeholder) {
      const type = shape.placeholder.type;
      shape.role =
        type === 'title' || type === 'ctrTitle'
          ? 'title'
          : type === 'subTitle'
            ? 'subtitle'
            : ['dt', 'ftr', 'sldNum', 'hdr'].includes(type)
              ? 'footer'
              : 'body';
    } else shape.role = 'body';
  }
  const free = shapes.filter((shape) => !shape.inherited && !shape.placeholder && shape.kind === 'text' && shape.box);
  for (const shape of free) {
    const box = shape.box!;
    if (box.y >= height * 0.88 && sizeOf(shape) <= 12) shape.role = 'footer';
  }
  // An empty title placeholder shows nothing in the slide show: a text box drawn over it is the real title.
  let title = shapes.find((shape) => shape.role === 'title' && hasText(shape));
  if (!title) {
    // Titles and subtitles are drawn in short boxes; a tall box is body text however few words it holds today.
    const candidates = free.filter(
      (shape) =>
        shape.role === 'body' && hasText(shape) && words(shape.text) <= 25 && shape.box!.h <= EMU_PER_INCH * 1.6,
    );
    title = candidates.find((shape) => /title/i.test(shape.name) && !/sub/i.test(shape.name));
    if (!title) {
      // A cover's title sits mid-slide, so the upper half is searched, largest text first.
      const upper = candidates
        .filter((shape) => shape.box!.y < height * 0.55)
        .sort((a, b) => sizeOf(b) - sizeOf(a) || a.box!.y - b.box!.y);
      const largest = upper[0];
      const others = free.filter((shape) => shape !== largest && shape.role === 'body' && hasText(shape)).map(sizeOf);
      if (largest && others.every((size) => size < sizeOf(largest))) title = largest;
    }
    if (title) {
      for (const shape of shapes) if (shape.role === 'title') shape.role = 'decoration';
      title.role = 'title';
    } else title = shapes.find((shape) => shape.role === 'title');
  }
  if (!shapes.some((shape) => shape.role === 'subtitle') && title?.box) {
    const titleBox = title.box;
    const named = free.find((shape) => shape.role === 'body' && hasText(shape) && /sub-?title/i.test(shape.name));
    const below = free
      .filter(
        (shape) =>
          shape.role === 'body' &&
          hasText(shape) &&
          words(shape.text) <= 30 &&
          shape.box!.h <= EMU_PER_INCH * 0.9 &&
          sizeOf(shape) < sizeOf(title) &&
          shape.box!.y >= titleBox.y + titleBox.h * 0.5,
      )
      .filter((shape) => shape.box!.y <= titleBox.y + titleBox.h + EMU_PER_INCH * 0.6 && shape.box!.y < height * 0.45)
      .sort((a, b) => a.box!.y - b.box!.y)[0];
    const subtitle = named ?? below;
    if (subtitle) subtitle.role = 'subtitle';
  }
}
