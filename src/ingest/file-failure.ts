// Importers read many files; one bad file is reported with its reason and the others go on.

/** A file an import could not use: malformed, unreadable, or holding nothing it reads. */
export interface FileFailure {
  file: string;
  reason: string;
}

/** The readers' messages start with the file's name; a failure names it in a field of its own. */
export function fileFailure(file: string, error: unknown): FileFailure {
  const message = firstLine(error);
  return { file, reason: message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message };
}

/** An error's message on one line: parsers (YAML's) add a multi-line excerpt of the input. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').trim().replace(/:$/, '');
}
