// What the rewrite reads from a Python project's declarations (requires-python, requirements, ruff's settings).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonProject, specifierLowerBound } from '../../codemods/python/project.js';
import { tempProject } from '../cli/helpers.js';

const MCP_MAIN = `[project]
name = "mcp"
requires-python = ">=3.10"
dynamic = ["version", "dependencies"]

[tool.hatch.metadata.hooks.uv-dynamic-versioning]
dependencies = [
    # anyio < 4.10 triggers a compile-time SyntaxWarning on Python 3.14
    "anyio>=4.10; python_version >= '3.14'",
    "anyio>=4.9; python_version < '3.14'",
    "httpx2>=2.5.0",
]

[dependency-groups]
dev = ["trio>=0.26.2"]

[tool.uv.sources]
anyio = { workspace = true }

[tool.ruff]
line-length = 120

[tool.ruff.lint.isort]
known-first-party = ["mcp"]
`;

function project(files: Record<string, string>) {
  const dir = tempProject({ ...files, 'pkg/client.py': '' });
  return pythonProject(path.join(dir, 'pkg/client.py'));
}

describe('a Python project\'s declarations', () => {
  it('pyproject.toml: the lowest lower bound over every declaration, markers and comments aside; requires-python; ruff settings', () => {
    const read = project({ 'pyproject.toml': MCP_MAIN });
    expect(read.lowerBound('anyio')).toEqual([4, 9]);
    expect(read.lowerBound('httpx2')).toEqual([2, 5, 0]);
    expect(read.lowerBound('trio')).toEqual([0, 26, 2]);
    expect(read.lowerBound('httpx')).toBeUndefined();
    expect(read.requiresPython).toEqual([3, 10]);
    expect(read.isort.lineLength).toBe(120);
    expect([...read.isort.knownFirstParty]).toContain('mcp');
  });

  it('setup.cfg, requirements*.txt and poetry carets; an unbounded declaration has no lower bound', () => {
    expect(project({ 'setup.cfg': '[options]\npython_requires = >=3.11\ninstall_requires =\n    anyio>=4.2,<5\n    httpx\n' })).toMatchObject({ requiresPython: [3, 11] });
    const cfg = project({ 'setup.cfg': '[options]\ninstall_requires =\n    anyio>=4.2,<5\n    httpx\n' });
    expect([cfg.lowerBound('anyio'), cfg.lowerBound('httpx')]).toEqual([[4, 2], []]);
    const requirements = project({ 'requirements.txt': 'httpx==0.27.2  # pinned\ntrio~=0.25.0\n' });
    expect([requirements.lowerBound('httpx'), requirements.lowerBound('trio')]).toEqual([[0, 27, 2], [0, 25, 0]]);
    const poetry = project({ 'pyproject.toml': '[tool.poetry.dependencies]\npython = "^3.9"\nanyio = "^4.0"\nhttpx = { version = ">=0.26" }\n' });
    expect([poetry.requiresPython, poetry.lowerBound('anyio'), poetry.lowerBound('httpx')]).toEqual([[3, 9], [4, 0], [0, 26]]);
  });

  it('specifiers', () => {
    expect(['>=4.5,<5', '~=0.27', '==2.1.*', '>4', '<5', '!=4.0', '^0.27.1', ''].map(specifierLowerBound)).toEqual([[4, 5], [0, 27], [2, 1], [4], [], [], [0, 27, 1], []]);
  });

  it('the nearest directory with a declaration wins; none found gives nothing declared and ruff\'s line length', () => {
    const dir = tempProject({ 'pyproject.toml': '[project]\ndependencies = ["anyio>=4"]\n', 'sub/setup.py': 'setup(install_requires=["anyio>=3.6"])\n', 'sub/m.py': '' });
    expect(pythonProject(path.join(dir, 'sub/m.py')).lowerBound('anyio')).toEqual([3, 6]);
    expect(pythonProject(path.join(dir, 'm.py')).lowerBound('anyio')).toEqual([4]);
    const bare = tempProject({ 'm.py': '' });
    expect(pythonProject(path.join(bare, 'm.py'))).toMatchObject({ requiresPython: null });
  });
});
