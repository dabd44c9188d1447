/**
 * @fbe-toolkit/fbe: the runtime of the FBE toolkit's JavaScript and
 * TypeScript target (docs/javascript.md). Generated code (`fbec
 * --typescript`, `fbec --javascript`) imports it as `fbe`.
 */

export { Decimal } from "./decimal.js";
export { checkArray, checkLength, DecodeError, EncodeError, rootOf, within, withinIndex, type LimitKind } from "./errors.js";
export { refused, type FieldSpec, type StructClass, type TypeSpec } from "./explain.js";
export {
  compareBlob,
  compareBool,
  compareChar,
  compareDecimal,
  compareFloat,
  compareOptional,
  compareSame,
  compareString,
  compareUuid,
  compareValue,
  checkEntries,
  elementsInOrder,
  entriesInOrder,
  keyOf,
  keysOf,
  sortedEntries,
  sortedKeys,
  sortedValues,
  repeated,
  repeatedEntries,
  type Compare,
  type Keyed,
} from "./keys.js";
export {
  budgetOf,
  BUDGET_FACTOR,
  BUDGET_SLACK,
  DEFAULT_LIMITS,
  limits,
  MAX_DEPTH,
  MAX_FRAME_SIZE,
  type Limits,
} from "./limits.js";
export {
  Answer,
  bytesOf,
  ClientTable,
  FrameError,
  FrameReceiver,
  frameType,
  MessageProxy,
  MessageReceiver,
  MessageTable,
  MIN_FINAL_FRAME,
  MIN_VERSIONED_FRAME,
  modelNotice,
  modelNoticeText,
  RejectError,
  RequestError,
  Requests,
  Sender,
  UNKNOWN_TYPE,
  type AnswerMatch,
  type AnswerType,
  type FrameErrorKind,
  type MessageClass,
  type Deliver,
  type MessageEntry,
  type MessageType,
  type RequestFailure,
  type RequestOptions,
  type RequestType,
  type Sendable,
  type Transport,
} from "./protocol.js";
export { Reader } from "./reader.js";
export {
  fromFbe,
  fromFinal,
  fromJson,
  toFbe,
  toFinal,
  toJson,
  verifyFbe,
  verifyFinal,
  type FinalClass,
  type JsonClass,
  type VersionedClass,
} from "./roots.js";
export { jsonDouble, percentF, percentG } from "./dtoa.js";
export { base64, decimalText, jsonString, JsonWriter } from "./json.js";
export { readJsonField, writeJsonField } from "./json_fields.js";
export { fromBase64, JsonReader, type JsonObject, type JsonValue } from "./json_reader.js";
export { enumText, flagsText, textOf, TextWriter } from "./text.js";
export { EPOCH, fromDate, toDate, utc, type Timestamp } from "./timestamp.js";
export { decodeUtf8, encodeUtf8, isUtf8, utf8Length } from "./utf8.js";
export { Uuid } from "./uuid.js";
export { Writer } from "./writer.js";
