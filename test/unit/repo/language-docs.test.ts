import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** Code blocks of a page, each with the file the line before it names (`[\`examples/...\`](...):`). */
function blocks(page: string) {
  return [...read(page).matchAll(/(?:\[`([^`]+)`\]\([^)]*\):\n\n)?```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    file: m[1],
    language: m[2]!,
    code: m[3]!,
  }));
}

describe('docs/languages.md shows whole files of the recipes the tests run', () => {
  // The install lines (sh) are commands, not files: test/helpers/clients.ts runs the same pip install.
  const shown = blocks('docs/languages.md').filter((b) => b.language !== 'sh');

  it("its Python install line is the one installPythonClient runs (pip from the path, Debian's setuptools)", () => {
    const install = blocks('docs/languages.md').find((b) => b.language === 'sh' && b.code.includes('clients/python'));
    expect(install?.code).toContain('python3 -m pip install --no-build-isolation /path/to/scanctl/clients/python');
    expect(read('test/helpers/clients.ts')).toContain("'--no-build-isolation'");
  });

  it('its Go install line is the one requireGoClient runs (a replace to the path of clients/go)', () => {
    const install = blocks('docs/languages.md').find((b) => b.language === 'sh' && b.code.includes('clients/go'));
    expect(install?.code).toContain(
      'go mod edit -require=scanctl.local/scanctltest@v0.0.0 -replace=scanctl.local/scanctltest=/path/to/scanctl/clients/go',
    );
    expect(read('clients/go/go.mod')).toMatch(/^module scanctl\.local\/scanctltest$/m);
    expect(read('test/helpers/clients.ts')).toContain("'mod', 'edit', `-require=${GO_MODULE}@v0.0.0`, `-replace=${GO_MODULE}=${library}`");
  });

  it('its Ruby install line is the one installRubyClient runs (gem build, then gem install --local)', () => {
    const install = blocks('docs/languages.md').find((b) => b.language === 'sh' && b.code.includes('clients/ruby'));
    expect(install?.code).toContain(
      'cd /path/to/scanctl/clients/ruby && gem build scanctl.gemspec && gem install --local scanctl-0.1.0.gem',
    );
    expect(read('test/helpers/clients.ts')).toContain("['install', '--local', '--no-document', 'scanctl-0.1.0.gem']");
  });

  it('its Java install lines are the ones installJavaClient runs (javac against JUnit, then jar)', () => {
    const install = blocks('docs/languages.md').find((b) => b.language === 'sh' && b.code.includes('clients/java'));
    expect(install?.code).toContain('javac --release 17 -cp "$JUNIT_API" -d build/classes $(find src/main/java -name \'*.java\')');
    expect(install?.code).toContain('jar cf build/scanctl-junit-0.1.0.jar -C build/classes .');
    const helper = read('test/helpers/clients.ts');
    expect(helper).toContain("['--release', '17', '-cp', JUNIT.api, '-d', 'build/classes', ...sources]");
    expect(helper).toContain("['cf', 'build/scanctl-junit-0.1.0.jar', '-C', 'build/classes', '.']");
  });

  it('has blocks for Python, Go, Ruby and Java', () => {
    expect(new Set(shown.map((b) => b.language))).toEqual(new Set(['python', 'go', 'ruby', 'java']));
  });

  it('every block is a whole recipe file, named above it, as it is', () => {
    for (const { file, code } of shown) {
      expect(file, code.slice(0, 60)).toMatch(/^(examples|clients)\/(python|go|ruby|java)\//);
      expect(code, file).toBe(read(file!));
    }
  });
});

describe('one verify per language', () => {
  it("docs/testing.md's Python, Go and Ruby checks are the libraries' and the recipes' verify files, whole", () => {
    const files: Record<string, string> = {
      python: 'clients/python/scanctl/_signature.py',
      go: 'clients/go/signature.go',
      ruby: 'clients/ruby/lib/scanctl/signature.rb',
    };
    const shown = blocks('docs/testing.md').filter((b) => b.language in files);
    expect(shown.map((b) => b.language).sort()).toEqual(['go', 'python', 'ruby']);
    for (const { language, code } of shown) expect(code, language).toBe(read(files[language]!));
  });
});

describe("docs/testing.md's TypeScript and JavaScript come from the example backend, which runs", () => {
  it('a block named after a file is that file, whole; any other block is verbatim in one of examples/backend/', () => {
    const sources = ['quickstart.test.ts', 'checkpoint.test.ts', 'backend.js', 'backend.test.ts'].map((f) => read(`examples/backend/${f}`));
    const shown = blocks('docs/testing.md').filter((b) => b.language === 'ts' || b.language === 'js');
    expect(shown.length).toBeGreaterThan(4);
    expect(shown.filter((b) => b.file).map((b) => b.file)).toEqual([
      'examples/backend/quickstart.test.ts',
      'examples/backend/checkpoint.test.ts',
    ]);
    for (const { file, code } of shown) {
      if (file) expect(code, file).toBe(read(file));
      else
        expect(
          sources.some((source) => source.includes(code)),
          code.slice(0, 80),
        ).toBe(true);
    }
  });
});
