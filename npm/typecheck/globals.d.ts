// Globals the npm API uses only where they exist (Node), declared for the type check alone.
declare var process:
  | {
      getBuiltinModule?(id: 'fs'): { promises: { readFile(url: URL): Promise<Uint8Array> } } | undefined;
    }
  | undefined;
