import type { Node } from './ast.js';

/** Answers from type information when `useTypes` is on: true/false when the type is known, undefined otherwise. */
export interface TypeOracle {
  /** The value's type is a response stream (`Response`, `ReadableStream…`, `IncomingMessage`, `Readable`, or a subclass). */
  isResponseStream(node: Node): boolean | undefined;
  /** false when the receiver of a close has a known type that nothing could end a response with (a `Job`, a `Map`). */
  confirmsReceiver(node: Node): boolean | undefined;
}

/** The few members of the TypeScript API used here (the parser services carry the real objects). */
interface TsSourceFile {
  fileName: string;
}
interface TsSymbol {
  getName(): string;
  declarations?: Array<{ getSourceFile(): TsSourceFile }>;
}
interface TsType {
  flags: number;
  getSymbol(): TsSymbol | undefined;
  getProperties(): Array<{ getName(): string }>;
  isUnion(): boolean;
  isClassOrInterface(): boolean;
  types?: TsType[];
}
interface TsChecker {
  getTypeAtLocation(node: unknown): TsType;
  getNonNullableType(type: TsType): TsType;
  getBaseTypes(type: TsType): TsType[];
}
export interface TypedServices {
  program?: { getTypeChecker(): TsChecker; isSourceFileDefaultLibrary(file: TsSourceFile): boolean } | null;
  esTreeNodeToTSNodeMap?: { get(node: unknown): unknown };
}

const ANY_OR_UNKNOWN = 1 | 2; // ts.TypeFlags.Any | ts.TypeFlags.Unknown

const RESPONSE_TYPES = new Set([
  'Response', 'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamReader',
  'IncomingMessage', 'Readable',
]);
/** Receivers a response can be closed through, besides response streams themselves. */
const RECEIVER_TYPES = new Set([
  'AbortController', 'TransformStreamDefaultController', 'AsyncGenerator', 'AsyncIterator', 'AsyncIterable',
  'AsyncIterableIterator', 'Duplex', 'Transform', 'PassThrough', 'Stream',
]);
/** Members that make a type stream- or iterator-like (an async-iterable parser over a body, a reader, a Node stream). */
const STREAM_MEMBERS = ['getReader', 'pipeThrough', 'pipe', 'next'];
/** What a server writes its response to (Express's `Response` is one): ending it closes nothing this client reads. */
const OUTGOING_TYPES = new Set(['OutgoingMessage', 'ServerResponse', 'Writable']);
/**
 * Where the stream types above are declared: TypeScript's own libs (the DOM `Response`, `ReadableStream`), Node's
 * types (`IncomingMessage`, `Readable`, the global `Response` from undici-types) and undici/node-fetch. A type of the
 * same name declared elsewhere (Express's `Response`, an SDK's own `Stream`) is not one of them.
 */
const STREAM_TYPE_ORIGIN = /[\\/]node_modules[\\/](?:@types[\\/]node|undici-types|undici|node-fetch)[\\/]/;

/** `services`: the parser services of the file (typescript-eslint's, with a program when it has type information). */
export function makeTypeOracle(services: TypedServices | undefined): TypeOracle | undefined {
  const program = services?.program;
  const nodeMap = services?.esTreeNodeToTSNodeMap;
  if (!program || !nodeMap) return undefined;
  const checker = program.getTypeChecker();

  const typeOf = (node: Node): TsType | undefined => {
    const tsNode = nodeMap.get(node);
    if (!tsNode) return undefined;
    const type = checker.getTypeAtLocation(tsNode);
    if (type.flags & ANY_OR_UNKNOWN) return undefined;
    return checker.getNonNullableType(type);
  };
  const members = (type: TsType): TsType[] => (type.isUnion() && type.types ? type.types : [type]);
  const fromStreamTypes = (symbol: TsSymbol): boolean =>
    (symbol.declarations ?? []).some((declaration) => {
      const file = declaration.getSourceFile();
      return program.isSourceFileDefaultLibrary(file) || STREAM_TYPE_ORIGIN.test(file.fileName);
    });
  /** The type or one of its base classes/interfaces is one of `names` as the platform declares it (bounded walk up the hierarchy). */
  const named = (type: TsType, names: ReadonlySet<string>, depth = 0): boolean => {
    const symbol = type.getSymbol();
    const name = symbol?.getName();
    if (symbol && name && names.has(name) && fromStreamTypes(symbol)) return true;
    if (depth > 4 || !type.isClassOrInterface()) return false;
    return checker.getBaseTypes(type).some((base) => named(base, names, depth + 1));
  };
  const outgoingOnly = (type: TsType): boolean => named(type, OUTGOING_TYPES) && !named(type, RESPONSE_TYPES);
  const streamLike = (type: TsType): boolean =>
    type.getProperties().some((property) => {
      const name = property.getName();
      return STREAM_MEMBERS.includes(name) || name.startsWith('__@asyncIterator');
    });

  return {
    isResponseStream(node) {
      const type = typeOf(node);
      if (!type) return undefined;
      return members(type).some((member) => named(member, RESPONSE_TYPES));
    },
    confirmsReceiver(node) {
      const type = typeOf(node);
      if (!type) return undefined;
      return members(type).some(
        (member) =>
          member.flags & ANY_OR_UNKNOWN ||
          named(member, RESPONSE_TYPES) ||
          (!outgoingOnly(member) && (named(member, RECEIVER_TYPES) || streamLike(member))),
      );
    },
  };
}
