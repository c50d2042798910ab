import { MAX_ATTACHED_BYTES } from '../../shared/protocol';

/** A file chosen in the task box, read into memory to go with the task. */
export interface ChosenFile {
  name: string;
  size: number;
  type: string;
  base64: string;
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^,]*,/, '') : '');
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read`));
    reader.readAsDataURL(file);
  });
}

/** Reads the files the user picked; refuses, with a sentence saying why, more than the task may carry. */
export async function readChosen(list: FileList | null, already: ChosenFile[]): Promise<{ files: ChosenFile[]; error: string }> {
  const picked = Array.from(list ?? []);
  const total = [...already, ...picked].reduce((sum, f) => sum + f.size, 0);
  if (total > MAX_ATTACHED_BYTES) {
    return { files: already, error: `The attached files come to ${(total / 1024 / 1024).toFixed(1)} MB; a task takes up to ${MAX_ATTACHED_BYTES / 1024 / 1024} MB.` };
  }
  const read = await Promise.all(picked.map(async (file) => ({ name: file.name, size: file.size, type: file.type, base64: await readBase64(file) })));
  const names = new Set(read.map((f) => f.name));
  return { files: [...already.filter((f) => !names.has(f.name)), ...read], error: '' };
}

export function toFileInputs(files: ChosenFile[]): ChosenFile[] {
  return files.map(({ name, size, type, base64 }) => ({ name, size, type, base64 }));
}

export interface AttachedFilesProps {
  id: string;
  files: ChosenFile[];
  onPick: (list: FileList | null) => void;
  onRemove: (name: string) => void;
}

/**
 * The task box's file picker: the files the task may upload, and only these (a page can never name another). The
 * model sees their names and sizes.
 */
export function AttachedFiles(props: AttachedFilesProps) {
  return (
    <div class="composer__files" data-testid="task-files">
      <label class="link-button" for={props.id}>
        Attach files
      </label>
      <input
        id={props.id}
        type="file"
        multiple
        hidden
        data-testid="task-file-input"
        onChange={(event) => {
          props.onPick(event.currentTarget.files);
          event.currentTarget.value = '';
        }}
      />
      {props.files.map((file) => (
        <span class="chip" data-testid="task-file" key={file.name}>
          {file.name}
          <button type="button" class="chip__remove" aria-label={`Remove ${file.name}`} onClick={() => props.onRemove(file.name)}>
            ×
          </button>
        </span>
      ))}
    </div>
  );
}
