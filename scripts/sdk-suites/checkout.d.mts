import type { Sdk } from './sdks.mjs';
export type CheckoutSpec = Pick<Sdk, 'name' | 'repo' | 'commit'> & Partial<Pick<Sdk, 'install' | 'lockfiles' | 'node'>>;
export function checkoutDir(sdk: { name: string }): string;
export function preparePristine(sdk: CheckoutSpec, log: (line: string) => void): Promise<string>;
