/** The width of a step card's thumbnail, in CSS pixels at twice the density (so it stays sharp on HiDPI screens). */
const THUMB_WIDTH = 320;

/**
 * A small JPEG of a screenshot for the step card, made in the service worker with OffscreenCanvas; undefined where
 * the image cannot be decoded (the step keeps its full image only).
 */
export async function thumbnailOf(shot: { mediaType: string; base64: string }): Promise<string | undefined> {
  try {
    const bytes = Uint8Array.from(atob(shot.base64), (char) => char.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: shot.mediaType }));
    const scale = Math.min(1, THUMB_WIDTH / bitmap.width);
    const canvas = new OffscreenCanvas(Math.max(1, Math.round(bitmap.width * scale)), Math.max(1, Math.round(bitmap.height * scale)));
    const context = canvas.getContext('2d');
    if (!context) return undefined;
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.7 });
    const data = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return btoa(binary);
  } catch {
    return undefined;
  }
}
