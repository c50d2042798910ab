import JSZip from 'jszip';
import { parseXmlRaw } from '../../native-host/documents/xml-tree';

/** The floor of bench:compare: the file unzipped with JSZip and every XML part parsed with deputy's parser, result unused. */
export async function unzipAndParse(data: Buffer): Promise<void> {
  const zip = await JSZip.loadAsync(data);
  for (const file of Object.values(zip.files)) if (!file.dir && /\.(xml|rels)$/.test(file.name)) parseXmlRaw(await file.async('string'));
}
