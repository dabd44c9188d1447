// The rows of the JavaScript benchmark (docs/benchmarks.md "JavaScript"): our generated code
// (fbec --typescript, runtime/js) against the peers a Node user picks, on the trade model.
//
// Every row converts from and to the same domain object, proto.Account as fbec generates it:
// serialize is domain object -> bytes (or the JSON text), deserialize is bytes -> a new domain
// object (then every field is read, touch), each reusing what a server would reuse (its writer,
// builder or buffer, the peer's message object it fills). JavaScript reads into new objects (our
// fromFbe and every peer's decode make them), so every row does. make bench-js generates the
// peers' code (pbjs/pbts of protobufjs-cli, flatc) and ours (fbec) into build/bench-js/gen.

import * as fbe from "@fbe-toolkit/fbe";
import avro from "avsc";
import * as flatbuffers from "flatbuffers";
import { Packr } from "msgpackr";

import { pb } from "../gen/pb.js";
import * as fb from "../gen/trade_generated.js";
import { Account, Balance, Order, OrderSide, OrderType, State } from "../gen/proto.js";

/** What a serialize gives: bytes, or the text of a JSON row. */
export type Message = Uint8Array | string;

/** One way of serializing the domain object. */
export interface Row {
  /** The benchmark name: <id>/<operation>. */
  id: string;
  /** The table's. */
  name: string;
  /** The npm package measured (its version is in package-lock.json), "" for ours and the engine's. */
  pkg: string;
  /** Serialize's result stays valid until its next call. */
  serialize(a: Account): Message;
  deserialize(data: Message): Account;
  /** Undefined when the format has no verifier; otherwise throws on a bad message. */
  verify?: (data: Uint8Array) => void;
}

// ---------------------------------------------------------------- ours

function rowFbe(): Row {
  const w = new fbe.Writer();
  return {
    id: "fbe",
    name: "FBE (ours)",
    pkg: "",
    serialize: (a) => a.toFbe(w),
    deserialize: (data) => Account.fromFbe(data as Uint8Array),
    verify: (data) => {
      const e = Account.verifyFbe(data);
      if (e !== undefined) {
        throw e;
      }
    },
  };
}

function rowFbeFinal(): Row {
  const w = new fbe.Writer();
  return {
    id: "fbe-final",
    name: "FBE final (ours)",
    pkg: "",
    serialize: (a) => a.toFinal(w),
    deserialize: (data) => Account.fromFinal(data as Uint8Array),
    verify: (data) => {
      const e = Account.verifyFinal(data);
      if (e !== undefined) {
        throw e;
      }
    },
  };
}

function rowFbeJson(): Row {
  return {
    id: "fbe-json",
    name: "FBE JSON (ours)",
    pkg: "",
    serialize: (a) => a.toJson(),
    deserialize: (data) => Account.fromJson(data),
  };
}

// ---------------------------------------------------------------- plain mirrors

// The plain shape the schemaless and reflective peers (msgpackr, JSON) and the protobufjs and avsc
// writers take, filled in place from the domain object (the server keeps one). FBE's JSON member
// names, so JSON.stringify writes what FBE JSON writes, but for the decimal digits of doubles.
interface PlainOrder {
  id: number;
  symbol: string;
  side: number;
  type: number;
  price: number;
  volume: number;
}

interface PlainBalance {
  currency: string;
  amount: number;
}

interface PlainAccount {
  id: number;
  name: string;
  state: number;
  wallet: PlainBalance;
  asset: PlainBalance | null;
  orders: PlainOrder[];
}

function newPlain(): PlainAccount {
  return { id: 0, name: "", state: 0, wallet: { currency: "", amount: 0 }, asset: null, orders: [] };
}

/** Fills m from a, reusing its balances and orders. */
function toPlain(a: Account, m: PlainAccount): PlainAccount {
  m.id = a.id;
  m.name = a.name;
  m.state = a.state;
  m.wallet.currency = a.wallet.currency;
  m.wallet.amount = a.wallet.amount;
  if (a.asset !== undefined) {
    m.asset ??= { currency: "", amount: 0 };
    m.asset.currency = a.asset.currency;
    m.asset.amount = a.asset.amount;
  } else {
    m.asset = null;
  }
  const orders = m.orders;
  const n = a.orders.length;
  for (let i = 0; i < n; i++) {
    const o = a.orders[i]!;
    const p = (orders[i] ??= { id: 0, symbol: "", side: 0, type: 0, price: 0, volume: 0 });
    p.id = o.id;
    p.symbol = o.symbol;
    p.side = o.side;
    p.type = o.type;
    p.price = o.price;
    p.volume = o.volume;
  }
  orders.length = n;
  return m;
}

/** The loose shape the peers' decoders give back (absent members as null or undefined). */
interface LooseBalance {
  currency?: string | null;
  amount?: number | null;
}

interface LooseOrder {
  id?: number | null;
  symbol?: string | null;
  side?: number | null;
  type?: number | null;
  price?: number | null;
  volume?: number | null;
}

interface LooseAccount {
  id?: number | null;
  name?: string | null;
  state?: number | null;
  wallet?: LooseBalance | null;
  asset?: LooseBalance | null;
  orders?: LooseOrder[] | null;
}

/** A new domain object with every field of m (what a consumer of the peer gets to work with). */
function fromLoose(m: LooseAccount): Account {
  const a = new Account();
  a.id = m.id ?? 0;
  a.name = m.name ?? "";
  a.state = m.state ?? 0;
  const w = m.wallet;
  a.wallet = new Balance({ currency: w?.currency ?? "", amount: w?.amount ?? 0 });
  const s = m.asset;
  a.asset = s != null ? new Balance({ currency: s.currency ?? "", amount: s.amount ?? 0 }) : undefined;
  const orders: Order[] = [];
  for (const o of m.orders ?? []) {
    orders.push(
      new Order({
        id: o.id ?? 0,
        symbol: o.symbol ?? "",
        side: o.side ?? 0,
        type: o.type ?? 0,
        price: o.price ?? 0,
        volume: o.volume ?? 0,
      }),
    );
  }
  a.orders = orders;
  return a;
}

// ---------------------------------------------------------------- protobufjs

// protobufjs's static code (pbjs -t static-module, pbts): encode takes the plain mirror (its
// $Properties shape), finish() gives the bytes (its pooled small buffers); decode makes the
// message objects, then the domain object is made from them.
function rowProtobuf(): Row {
  const m = newPlain();
  return {
    id: "protobufjs",
    name: "protobufjs (static)",
    pkg: "protobufjs",
    serialize: (a) => pb.trade.Account.encode(toPlain(a, m)).finish(),
    deserialize: (data) => fromLoose(pb.trade.Account.decode(data as Uint8Array)),
  };
}

// ---------------------------------------------------------------- avsc

const avroOrder = {
  type: "record",
  name: "Order",
  fields: [
    { name: "id", type: "int" },
    { name: "symbol", type: "string" },
    { name: "side", type: "int" },
    { name: "type", type: "int" },
    { name: "price", type: "double" },
    { name: "volume", type: "double" },
  ],
} as const;

const avroBalance = {
  type: "record",
  name: "Balance",
  fields: [
    { name: "currency", type: "string" },
    { name: "amount", type: "double" },
  ],
} as const;

/** The Avro schema of the trade model: the enums and flags as ints (as every other row has them). */
export const avroAccount = {
  type: "record",
  name: "Account",
  fields: [
    { name: "id", type: "int" },
    { name: "name", type: "string" },
    { name: "state", type: "int" },
    { name: "wallet", type: avroBalance },
    { name: "asset", type: ["null", "Balance"] },
    { name: "orders", type: { type: "array", items: avroOrder } },
  ],
};

// avsc: the type's encode into a reused buffer (grown when it is too small), fromBuffer makes its
// record objects, then the domain object is made from them.
function rowAvsc(): Row {
  const type = avro.Type.forSchema(avroAccount as avro.Schema);
  const m = newPlain();
  let buf = Buffer.alloc(256);
  return {
    id: "avsc",
    name: "avsc",
    pkg: "avsc",
    serialize: (a) => {
      toPlain(a, m);
      let n = type.encode(m, buf, 0);
      if (n < 0) {
        buf = Buffer.alloc(buf.length - n);
        n = type.encode(m, buf, 0);
      }
      return buf.subarray(0, n);
    },
    deserialize: (data) => {
      const d = data as Uint8Array;
      return fromLoose(type.fromBuffer(Buffer.from(d.buffer, d.byteOffset, d.byteLength)) as LooseAccount);
    },
  };
}

// ---------------------------------------------------------------- msgpackr

// msgpackr with records (useRecords): objects of one shape are written as a record id and the
// values; the record definitions are shared by writer and reader (structures, as a server and
// its clients keep them) rather than sent in each message. One Packr both packs and unpacks.
function rowMsgpackr(): Row {
  const packr = new Packr({ useRecords: true, structures: [] });
  const m = newPlain();
  return {
    id: "msgpackr",
    name: "msgpackr (records)",
    pkg: "msgpackr",
    serialize: (a) => packr.pack(toPlain(a, m)),
    deserialize: (data) => fromLoose(packr.unpack(data as Uint8Array) as LooseAccount),
  };
}

// ---------------------------------------------------------------- FlatBuffers

// FlatBuffers (flatc --ts of bench/cpp/schemas/trade.fbs): a reused Builder (clear); reading goes
// through the tables in place, reused accessor objects (no verifier in the FlatBuffers
// JavaScript runtime, so its reads trust the input, as docs/benchmarks.md says of the C++ row).
function rowFlatBuffers(): Row {
  const b = new flatbuffers.Builder(512);
  const offsets: flatbuffers.Offset[] = [];
  const balance = (x: Balance): flatbuffers.Offset => {
    const cur = b.createString(x.currency);
    fb.Balance.startBalance(b);
    fb.Balance.addCurrency(b, cur);
    fb.Balance.addAmount(b, x.amount);
    return fb.Balance.endBalance(b);
  };
  const acc = new fb.Account();
  const bal = new fb.Balance();
  const ord = new fb.Order();
  return {
    id: "flatbuffers",
    name: "FlatBuffers",
    pkg: "flatbuffers",
    serialize: (a) => {
      b.clear();
      const name = b.createString(a.name);
      const wallet = balance(a.wallet);
      const asset = a.asset !== undefined ? balance(a.asset) : 0;
      offsets.length = 0;
      for (const o of a.orders) {
        const sym = b.createString(o.symbol);
        fb.Order.startOrder(b);
        fb.Order.addId(b, o.id);
        fb.Order.addSymbol(b, sym);
        fb.Order.addSide(b, o.side);
        fb.Order.addType(b, o.type);
        fb.Order.addPrice(b, o.price);
        fb.Order.addVolume(b, o.volume);
        offsets.push(fb.Order.endOrder(b));
      }
      const orders = fb.Account.createOrdersVector(b, offsets);
      fb.Account.startAccount(b);
      fb.Account.addId(b, a.id);
      fb.Account.addName(b, name);
      fb.Account.addState(b, a.state);
      fb.Account.addWallet(b, wallet);
      if (a.asset !== undefined) {
        fb.Account.addAsset(b, asset);
      }
      fb.Account.addOrders(b, orders);
      b.finish(fb.Account.endAccount(b));
      return b.asUint8Array();
    },
    deserialize: (data) => {
      const d = data as Uint8Array;
      if (d.length < 4) {
        throw new Error("flatbuffers: shorter than a root offset");
      }
      fb.Account.getRootAsAccount(new flatbuffers.ByteBuffer(d), acc);
      const a = new Account();
      a.id = acc.id();
      a.name = acc.name() ?? "";
      a.state = acc.state();
      a.wallet =
        acc.wallet(bal) !== null ? new Balance({ currency: bal.currency() ?? "", amount: bal.amount() }) : new Balance();
      a.asset = acc.asset(bal) !== null ? new Balance({ currency: bal.currency() ?? "", amount: bal.amount() }) : undefined;
      const n = acc.ordersLength();
      const orders: Order[] = [];
      for (let i = 0; i < n; i++) {
        acc.orders(i, ord);
        orders.push(
          new Order({
            id: ord.id(),
            symbol: ord.symbol() ?? "",
            side: ord.side(),
            type: ord.type(),
            price: ord.price(),
            volume: ord.volume(),
          }),
        );
      }
      a.orders = orders;
      return a;
    },
  };
}

// ---------------------------------------------------------------- JSON

// The engine's JSON.stringify of the plain mirror (FBE JSON's member names) and JSON.parse, then
// the domain object from what it gives.
function rowJson(): Row {
  const m = newPlain();
  return {
    id: "json",
    name: "JSON.stringify/parse",
    pkg: "",
    serialize: (a) => JSON.stringify(toPlain(a, m)),
    deserialize: (data) => fromLoose(JSON.parse(data as string) as LooseAccount),
  };
}

/** The benchmark's rows, each with its own reused state. */
export function rows(): Row[] {
  return [rowFbe(), rowFbeFinal(), rowFbeJson(), rowProtobuf(), rowAvsc(), rowMsgpackr(), rowFlatBuffers(), rowJson()];
}

// ---------------------------------------------------------------- the sample and the check

/** The trade model's account (docs/benchmarks.md): id 1 "Test", state good, wallet USD 1000, asset
 * EUR 100, three EURUSD orders (as bench/cpp and bench/go). */
export function sample(): Account {
  return new Account({
    id: 1,
    name: "Test",
    state: State.good,
    wallet: new Balance({ currency: "USD", amount: 1000 }),
    asset: new Balance({ currency: "EUR", amount: 100 }),
    orders: [
      new Order({ id: 1, symbol: "EURUSD", side: OrderSide.buy, type: OrderType.market, price: 1.23456, volume: 1000 }),
      new Order({ id: 2, symbol: "EURUSD", side: OrderSide.sell, type: OrderType.limit, price: 1.0, volume: 100 }),
      new Order({ id: 3, symbol: "EURUSD", side: OrderSide.buy, type: OrderType.stop, price: 1.5, volume: 10 }),
    ],
  });
}

/** The accounts every row round-trips before it is timed: the sample, one without asset and with
 * five orders, one with empty strings and no orders (bench/go's). */
export function checkAccounts(): Account[] {
  const noAsset = sample();
  noAsset.id = 2;
  noAsset.asset = undefined;
  noAsset.state = State.bad;
  for (let i = 4; i <= 5; i++) {
    noAsset.orders.push(
      new Order({ id: i, symbol: "GBPUSD", side: OrderSide.sell, type: OrderType.limit, price: 1.25 * i, volume: -2 }),
    );
  }
  return [sample(), noAsset, new Account({ id: -7 })];
}

function sameBalance(a: Balance | undefined, b: Balance | undefined): boolean {
  if (a === undefined || b === undefined) {
    return a === b;
  }
  return a instanceof Balance && b instanceof Balance && a.currency === b.currency && Object.is(a.amount, b.amount);
}

/** Every field of o, numbers in their shortest exact text (toString rounds doubles). */
function orderText(o: Order): string {
  return JSON.stringify({ ...o });
}

/** "" when a and b hold the same values (every field), else the first field that differs. */
export function difference(a: Account, b: Account): string {
  if (!(a instanceof Account)) {
    return "not a proto.Account";
  }
  if (a.id !== b.id || a.name !== b.name || a.state !== b.state) {
    return `id/name/state: ${a.id} ${JSON.stringify(a.name)} ${a.state} vs ${b.id} ${JSON.stringify(b.name)} ${b.state}`;
  }
  if (!sameBalance(a.wallet, b.wallet)) {
    return `wallet: ${JSON.stringify(a.wallet)} vs ${JSON.stringify(b.wallet)}`;
  }
  if (!sameBalance(a.asset, b.asset)) {
    return `asset: ${JSON.stringify(a.asset)} vs ${JSON.stringify(b.asset)}`;
  }
  if (a.orders.length !== b.orders.length) {
    return `orders: ${a.orders.length} vs ${b.orders.length}`;
  }
  for (let i = 0; i < a.orders.length; i++) {
    const x = a.orders[i]!;
    const y = b.orders[i]!;
    const same =
      x instanceof Order &&
      x.id === y.id &&
      x.symbol === y.symbol &&
      x.side === y.side &&
      x.type === y.type &&
      Object.is(x.price, y.price) &&
      Object.is(x.volume, y.volume);
    if (!same) {
      return `orders[${i}]: ${orderText(x)} vs ${orderText(y)}`;
    }
  }
  return "";
}

/** Reads every field of a (what a consumer of the message does; the same work for every row). */
export function touch(a: Account): number {
  let n = a.id + a.name.length + a.state + a.wallet.currency.length + a.wallet.amount;
  if (a.asset !== undefined) {
    n += a.asset.currency.length + a.asset.amount;
  }
  for (const o of a.orders) {
    n += o.id + o.symbol.length + o.side + o.type + o.price + o.volume;
  }
  return n;
}

/** The size of a message in bytes (a JSON text as UTF-8). */
export function sizeOf(m: Message): number {
  return typeof m === "string" ? Buffer.byteLength(m, "utf8") : m.length;
}

/** A copy that outlives the row's next serialize. */
export function keep(m: Message): Message {
  return typeof m === "string" ? m : m.slice();
}

/**
 * Round-trips every checkAccounts account through the row and checks that its verifier accepts
 * its own message and refuses the message cut short by one byte; throws what fails. A row that
 * fails is reported with the error and not timed.
 */
export function check(r: Row): void {
  for (const want of checkAccounts()) {
    const data = keep(r.serialize(want));
    const got = r.deserialize(data);
    const d = difference(got, want);
    if (d !== "") {
      throw new Error(`account ${want.id} read back differs: ${d}`);
    }
    if (r.verify === undefined) {
      continue;
    }
    const bytes = data as Uint8Array;
    try {
      r.verify(bytes);
    } catch (e) {
      throw new Error(`verify refused its own message (account ${want.id}): ${String(e)}`);
    }
    let refused = false;
    try {
      r.verify(bytes.subarray(0, bytes.length - 1));
    } catch {
      refused = true;
    }
    if (!refused) {
      throw new Error(`verify accepted account ${want.id} cut short by one byte`);
    }
  }
}
