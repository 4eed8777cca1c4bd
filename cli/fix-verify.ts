import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Project } from 'ts-morph';

/**
 * Verification (on by default where a tsconfig.json applies, `--verify` everywhere, `--no-verify` never): type-checks a TypeScript file before and after its rewrite with ts-morph, using the
 * nearest tsconfig.json (else strict defaults), and returns the diagnostics the rewrite adds.
 */
export class RewriteVerifier {
  private readonly projects = new Map<string, Project>();
  private tsMorph: typeof import('ts-morph') | undefined;

  /** `alongside`: files the rewrite adds that the rewritten file imports (the helper module), checked with it. */
  async addedDiagnostics(filePath: string, before: string, after: string, alongside: ReadonlyArray<{ path: string; text: string }> = []): Promise<string[]> {
    const project = await this.projectFor(filePath);
    const added = alongside.map((file) => project.createSourceFile(file.path, file.text, { overwrite: true }));
    const check = (text: string): string[] => {
      const file = project.createSourceFile(filePath, text, { overwrite: true });
      const messages = file.getPreEmitDiagnostics().map((diagnostic) => {
        const text = this.tsMorph!.ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ');
        return `TS${diagnostic.getCode()}: ${text}`;
      });
      project.removeSourceFile(file);
      return messages;
    };
    const old = check(before);
    const remaining = [...old];
    const diagnostics: string[] = [];
    for (const message of check(after)) {
      const index = remaining.indexOf(message);
      if (index >= 0) remaining.splice(index, 1);
      else diagnostics.push(message);
    }
    for (const file of added) project.removeSourceFile(file);
    return diagnostics;
  }

  /**
   * The diagnostics in a new file (the helper module) checked in the project of `near`. Those about the project's own
   * settings (a deprecated `moduleResolution` or `baseUrl`) are the project's, not the file's, and are left out.
   */
  async diagnosticsOf(filePath: string, text: string, near: string): Promise<string[]> {
    const project = await this.projectFor(near);
    const file = project.createSourceFile(filePath, text, { overwrite: true });
    const messages = file
      .getPreEmitDiagnostics()
      .filter((diagnostic) => diagnostic.getSourceFile()?.getFilePath() === file.getFilePath())
      .map((diagnostic) => `TS${diagnostic.getCode()}: ${this.tsMorph!.ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ')}`);
    project.removeSourceFile(file);
    return messages;
  }

  private async projectFor(filePath: string): Promise<Project> {
    this.tsMorph ??= await import('ts-morph');
    const { Project, ts } = this.tsMorph;
    const tsconfig = findUp(path.dirname(filePath), 'tsconfig.json');
    const key = tsconfig ?? '<defaults>';
    let project = this.projects.get(key);
    if (!project) {
      project = tsconfig
        ? new Project({ tsConfigFilePath: tsconfig, skipAddingFilesFromTsConfig: true })
        : new Project({
            compilerOptions: {
              strict: true,
              target: ts.ScriptTarget.ES2022,
              module: ts.ModuleKind.NodeNext,
              moduleResolution: ts.ModuleResolutionKind.NodeNext,
              lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.asynciterable.d.ts'],
              jsx: ts.JsxEmit.Preserve,
              skipLibCheck: true,
              noEmit: true,
            },
          });
      this.projects.set(key, project);
    }
    return project;
  }
}

/** Whether a tsconfig.json applies to the file (the nearest one up from its directory). */
export function hasTsconfig(filePath: string): boolean {
  return findUp(path.dirname(path.resolve(filePath)), 'tsconfig.json') !== undefined;
}

function findUp(start: string, name: string): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}
