import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
let eslint: ESLint;

beforeAll(() => {
  // The files linted here are virtual (no TypeScript program knows them): the boundary rule needs no types.
  eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });
});

async function boundaryMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);
}

describe('the import-boundary lint (docs/architecture.md layers)', () => {
  it('rejects components → server', async () => {
    const messages = await boundaryMessages(
      'components/bad-import.tsx',
      "import { handle } from '@/server/http/handle';\nexport const x = handle;\n",
    );
    expect(messages).toEqual([expect.stringContaining('components may not import server')]);
  });

  it('rejects lib → server, lib → react and lib → node:fs, but lets lib use zod and type-only imports', async () => {
    const messages = await boundaryMessages(
      'lib/bad-import.ts',
      [
        "import { AppError } from '../server/http/app-error';",
        "import { useState } from 'react';",
        "import { readFileSync } from 'node:fs';",
        "import { z } from 'zod';",
        "import type { ReactNode } from 'react';",
        'export const a = [AppError, useState, readFileSync, z];',
        'export type B = ReactNode;',
        '',
      ].join('\n'),
    );
    expect(messages).toHaveLength(3);
    expect(messages.join('\n')).toMatch(/lib may not import server/);
    expect(messages.join('\n')).toMatch(/lib may not import react/);
    expect(messages.join('\n')).toMatch(/lib may not import node:fs/);
  });

  it('rejects server → components and sim → server', async () => {
    expect(
      await boundaryMessages('server/bad-import.ts', "import { AppShell } from '@/components/app-shell';\nexport const a = AppShell;\n"),
    ).toEqual([expect.stringContaining('server may not import components')]);
    expect(
      await boundaryMessages('sim/bad-import.ts', "import { handle } from '@/server/http/handle';\nexport const a = handle;\n"),
    ).toEqual([expect.stringContaining('sim may not import server')]);
  });

  it('accepts the allowed directions', async () => {
    expect(
      await boundaryMessages(
        'app/ok-import.tsx',
        "import { AppShell } from '@/components/app-shell';\nimport { handle } from '@/server/http/handle';\nimport { HealthResponseSchema } from '@/lib/api';\nexport const a = [AppShell, handle, HealthResponseSchema];\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryMessages(
        'components/ok-import.tsx',
        "import { HealthResponseSchema } from '@/lib/api';\nexport const a = HealthResponseSchema;\n",
      ),
    ).toEqual([]);
  });
});
