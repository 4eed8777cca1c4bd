import type { Node } from './ast.js';

/** Answers from type information when `useTypes` is on: true/false when the type is known, undefined otherwise. */
export interface TypeOracle {
  /** The value's type is a response stream of SPEC §1 (`Response`, `ReadableStream…`, `IncomingMessage`, `Readable`, or a subclass). */
  isResponseStream(node: Node): boolean | undefined;
  /** false when the receiver of a close has a known type that nothing could end a response with (a `Job`, a `Map`). */
  confirmsReceiver(node: Node): boolean | undefined;
}

/** The few members of the TypeScript API used here (the parser services carry the real objects). */
interface TsType {
  flags: number;
  getSymbol(): { getName(): string } | undefined;
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
interface TypedServices {
  program?: { getTypeChecker(): TsChecker } | null;
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

export function makeTypeOracle(services: unknown): TypeOracle | undefined {
  const typed = services as TypedServices | undefined;
  const program = typed?.program;
  const nodeMap = typed?.esTreeNodeToTSNodeMap;
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
  /** The type or one of its base classes/interfaces is named in `names` (bounded walk up the hierarchy). */
  const named = (type: TsType, names: ReadonlySet<string>, depth = 0): boolean => {
    const name = type.getSymbol()?.getName();
    if (name && names.has(name)) return true;
    if (depth > 4 || !type.isClassOrInterface()) return false;
    return checker.getBaseTypes(type).some((base) => named(base, names, depth + 1));
  };
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
        (member) => member.flags & ANY_OR_UNKNOWN || named(member, RESPONSE_TYPES) || named(member, RECEIVER_TYPES) || streamLike(member),
      );
    },
  };
}
