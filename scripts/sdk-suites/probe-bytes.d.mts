import type { Agent } from 'node:http';
export interface BodyCount {
  /** The call it belongs to (-1: opened between calls). */
  call: number;
  bytes: number;
  /** Bytes after the terminal frame; null while it has not been seen. */
  afterTerminal: number | null;
  head: string;
}
export interface BodyCounter {
  bodies: BodyCount[];
  setCall(i: number): void;
  open(): (chunk: Uint8Array) => void;
}
export function bodyCounter(terminalFrames: string[]): BodyCounter;
export function countChunk(body: BodyCount, chunk: Uint8Array, terminalFrames: string[]): void;
export function terminalEnd(text: string, frames: string[]): number;
export function countingDispatcher(counter: BodyCounter): Promise<{ destroy(): Promise<void>; close(): Promise<void> }>;
export function setGlobalDispatcher(dispatcher: unknown): unknown;
export function countingHttpAgent(counter: BodyCounter): Agent;
