using System;
using System.Collections.Generic;
using System.Numerics;

namespace Fbe
{
    /// <summary>The codecs of the format's values; generated code composes them per field
    /// (<c>Codecs.Vector(Codecs.String)</c>) and holds the result in a static field.</summary>
    public static class Codecs
    {
        public static readonly FixedCodec<bool> Bool = new ScalarCodec<bool>(1, Reader.GetBool, (w, p, v) => w.PutBool(p, v), (t, v) => t.Bool(v),
            (j, v) => j.Bool(v), (j, v) => j.KeyBool(v),
            r => r.Bool(), (r, k) => JsonKeys.Bool(r, k));
        public static readonly FixedCodec<byte> Byte = Integer<byte>(1, Reader.GetByte, (w, p, v) => w.PutByte(p, v), 0, byte.MaxValue, "byte", v => v, v => (byte)v);
        public static readonly FixedCodec<sbyte> SByte = Integer<sbyte>(1, Reader.GetSByte, (w, p, v) => w.PutSByte(p, v), sbyte.MinValue, sbyte.MaxValue, "int8", v => v, v => (sbyte)v);
        public static readonly FixedCodec<short> Int16 = Integer<short>(2, Reader.GetInt16, (w, p, v) => w.PutInt16(p, v), short.MinValue, short.MaxValue, "int16", v => v, v => (short)v);
        public static readonly FixedCodec<ushort> UInt16 = Integer<ushort>(2, Reader.GetUInt16, (w, p, v) => w.PutUInt16(p, v), 0, ushort.MaxValue, "uint16", v => v, v => (ushort)v);
        public static readonly FixedCodec<int> Int32 = Integer<int>(4, Reader.GetInt32, (w, p, v) => w.PutInt32(p, v), int.MinValue, int.MaxValue, "int32", v => v, v => (int)v);
        public static readonly FixedCodec<uint> UInt32 = Integer<uint>(4, Reader.GetUInt32, (w, p, v) => w.PutUInt32(p, v), 0, uint.MaxValue, "uint32", v => v, v => (uint)v);
        public static readonly FixedCodec<long> Int64 = Integer<long>(8, Reader.GetInt64, (w, p, v) => w.PutInt64(p, v), long.MinValue, long.MaxValue, "int64", v => v, v => (long)v);
        public static readonly FixedCodec<ulong> UInt64 = Integer<ulong>(8, Reader.GetUInt64, (w, p, v) => w.PutUInt64(p, v), 0, ulong.MaxValue, "uint64", v => (long)v, v => (ulong)v);
        public static readonly FixedCodec<float> Single = new ScalarCodec<float>(4, Reader.GetSingle, (w, p, v) => w.PutSingle(p, v), (t, v) => t.Float(v),
            (j, v) => j.Double(v), (j, v) => j.KeyDouble(v, true),
            r => (float)r.Double(true), (r, k) => (float)JsonKeys.Double(r, k, true));
        public static readonly FixedCodec<double> Double = new ScalarCodec<double>(8, Reader.GetDouble, (w, p, v) => w.PutDouble(p, v), (t, v) => t.Float(v),
            (j, v) => j.Double(v), (j, v) => j.KeyDouble(v, false),
            r => r.Double(false), (r, k) => JsonKeys.Double(r, k, false));
        public static readonly FixedCodec<Guid> Guid = new ScalarCodec<Guid>(16, Reader.GetGuid, (w, p, v) => w.PutGuid(p, v), (t, v) => t.Guid(v),
            (j, v) => j.Guid(v), (j, v) => j.KeyGuid(v),
            r => r.Guid(), (r, k) => r.ParseGuid(k));
        public static readonly FixedCodec<Timestamp> Timestamp = new ScalarCodec<Timestamp>(
            8, (b, p) => new Timestamp(Reader.GetUInt64(b, p)), (w, p, v) => w.PutUInt64(p, v.Nanoseconds), (t, v) => t.Unsigned(v.Nanoseconds),
            (j, v) => j.Unsigned(v.Nanoseconds), (j, v) => j.KeyUnsigned(v.Nanoseconds),
            r => new Timestamp((ulong)r.Integer(0, ulong.MaxValue, "timestamp")), (r, k) => new Timestamp((ulong)JsonKeys.Integer(r, k, 0, ulong.MaxValue, "timestamp")));
        /// <summary>An integer of the schema type <paramref name="name"/> in [<paramref name="min"/>, <paramref name="max"/>]:
        /// its decimal digits in the text form and in JSON, a JSON integer in its range read.</summary>
        /// <remarks><paramref name="wide"/> gives a value's 64 bits (a uint64 above long.MaxValue as its two's complement), written
        /// as signed when <paramref name="min"/> is negative; no BigInteger on the way out.</remarks>
        private static FixedCodec<T> Integer<T>(int size, Func<byte[], int, T> get, Action<Writer, int, T> put, BigInteger min, BigInteger max,
            string name, Func<T, long> wide, Func<BigInteger, T> narrow)
        {
            Func<JsonSource, T> json = r => narrow(r.Integer(min, max, name));
            Func<JsonSource, string, T> key = (r, k) => narrow(JsonKeys.Integer(r, k, min, max, name));
            if (min.Sign < 0)
                return new ScalarCodec<T>(size, get, put, (t, v) => t.Integer(wide(v)), (j, v) => j.Integer(wide(v)), (j, v) => j.KeyInteger(wide(v)), json, key);
            return new ScalarCodec<T>(size, get, put, (t, v) => t.Unsigned((ulong)wide(v)), (j, v) => j.Unsigned((ulong)wide(v)),
                (j, v) => j.KeyUnsigned((ulong)wide(v)), json, key);
        }

        /// <summary>A char: a byte printed as itself between single quotes.</summary>
        public static readonly FixedCodec<byte> Char = new ScalarCodec<byte>(1, Reader.GetByte, (w, p, v) => w.PutByte(p, v), (t, v) => t.Char(v),
            (j, v) => j.Unsigned(v), (j, v) => j.KeyUnsigned(v),
            r => JsonKeys.Char(r, r.Integer(-128, uint.MaxValue, "char")), (r, k) => JsonKeys.Char(r, JsonKeys.Integer(r, k, -128, uint.MaxValue, "char")));
        /// <summary>A wchar: its 32-bit code value, printed as its low byte between single quotes.</summary>
        public static readonly FixedCodec<uint> WChar = new ScalarCodec<uint>(4, Reader.GetUInt32, (w, p, v) => w.PutUInt32(p, v), (t, v) => t.Char((byte)v),
            (j, v) => j.Unsigned(v), (j, v) => j.KeyUnsigned(v),
            r => (uint)r.Integer(0, uint.MaxValue, "wchar"), (r, k) => (uint)JsonKeys.Integer(r, k, 0, uint.MaxValue, "wchar"));
        public static readonly Codec<decimal> Decimal = new DecimalCodec();
        public static readonly Codec<string> String = new StringCodec();
        public static readonly Codec<byte[]> Bytes = new BytesCodec();

        /// <summary>An enum on the wire as <paramref name="wire"/>: its text is the first name declared with its value.</summary>
        public static FixedCodec<TEnum> Enum<TEnum, TWire>(FixedCodec<TWire> wire, Func<TWire, TEnum> from, Func<TEnum, TWire> to)
        {
            var names = EnumText.Of<TEnum>();
            return new ScalarCodec<TEnum>(wire.Slot, (b, p) => from(wire.At(b, p)), (w, p, v) => wire.Store(w, p, to(v)),
                (t, v) => t.Raw(names.Name(v)), (j, v) => wire.Json(j, to(v)), (j, v) => wire.JsonKey(j, to(v)),
                r => from(wire.FromJson(r)), (r, k) => from(wire.FromJsonKey(r, k)));
        }

        /// <summary>A flags type on the wire as <paramref name="wire"/>: its text is every declared name whose bits are set.</summary>
        public static FixedCodec<TEnum> Flags<TEnum, TWire>(FixedCodec<TWire> wire, Func<TWire, TEnum> from, Func<TEnum, TWire> to)
        {
            var names = EnumText.Of<TEnum>();
            return new ScalarCodec<TEnum>(wire.Slot, (b, p) => from(wire.At(b, p)), (w, p, v) => wire.Store(w, p, to(v)),
                (t, v) => t.Raw(names.Flags(v)), (j, v) => wire.Json(j, to(v)), (j, v) => wire.JsonKey(j, to(v)),
                r => from(wire.FromJson(r)), (r, k) => from(wire.FromJsonKey(r, k)));
        }

        /// <summary>A vector (its text in brackets).</summary>
        public static Codec<List<T>> Vector<T>(Codec<T> element) { return new VectorCodec<T>(element, "[", "]"); }

        /// <summary>A list (its text in angle brackets).</summary>
        public static Codec<List<T>> List<T>(Codec<T> element) { return new VectorCodec<T>(element, "<", ">"); }

        /// <summary>An optional value type (<c>int?</c>).</summary>
        public static Codec<T?> Optional<T>(Codec<T> value) where T : struct { return new OptionalValueCodec<T>(value); }

        /// <summary>An optional reference type (a struct, string, bytes or collection), null when absent.</summary>
        public static Codec<T> OptionalRef<T>(Codec<T> value) where T : class { return new OptionalRefCodec<T>(value); }

        /// <summary>A fixed array of <paramref name="length"/> values read without a check of their own.</summary>
        public static FixedCodec<T[]> FixedArray<T>(FixedCodec<T> element, int length) { return new FixedArrayCodec<T>(element, length); }

        /// <summary>A fixed array of <paramref name="length"/> values.</summary>
        public static Codec<T[]> Array<T>(Codec<T> element, int length) { return new ArrayCodec<T>(element, length); }

        /// <summary>A set, written in the order of <paramref name="order"/>.</summary>
        public static Codec<SortedSet<T>> Set<T>(Codec<T> element, IComparer<T> order) { return new SetCodec<T>(element, order); }

        /// <summary>A map, written in the order of its keys.</summary>
        public static Codec<SortedDictionary<TKey, TValue>> Map<TKey, TValue>(Codec<TKey> key, Codec<TValue> value, IComparer<TKey> order)
        {
            return new MapCodec<SortedDictionary<TKey, TValue>, TKey, TValue, SortedDictionary<TKey, TValue>.Enumerator>(
                key, value, () => new SortedDictionary<TKey, TValue>(order), m => m.GetEnumerator(), "<{", "}>");
        }

        /// <summary>A hash, written in the order its dictionary holds the keys.</summary>
        public static Codec<Dictionary<TKey, TValue>> Hash<TKey, TValue>(Codec<TKey> key, Codec<TValue> value, IEqualityComparer<TKey> same)
        {
            return new MapCodec<Dictionary<TKey, TValue>, TKey, TValue, Dictionary<TKey, TValue>.Enumerator>(
                key, value, () => new Dictionary<TKey, TValue>(same), m => m.GetEnumerator(), "[{", "}]");
        }

        internal static EncodeException Null()
        {
            return new EncodeException(ErrorKind.Invalid, "null where the schema has a value (only optionals may be null)", "");
        }
    }

    internal sealed class DecimalCodec : Codec<decimal>
    {
        public DecimalCodec() : base(16, 16, 16) { }
        public override void Put(Writer w, int bas, int slot, decimal v) { w.PutDecimal(slot, v); }
        public override decimal Get(Reader r, int bas, int slot) { return r.Decimal(slot, ""); }
        public override void Append(Writer w, decimal v) { w.AppendDecimal(v); }
        public override decimal Take(Reader r) { return r.FinalDecimal(""); }
        public override void Text(TextBuilder t, decimal v) { t.Decimal(v); }
        public override void Json(JsonBuilder j, decimal v) { j.Decimal(v); }
        public override bool HasKeyText { get { return true; } }
        public override void JsonKey(JsonBuilder j, decimal v) { j.KeyDecimal(v); }
        public override decimal FromJson(JsonSource r) { return r.Decimal(); }
        public override decimal FromJsonKey(JsonSource r, string key) { return r.ParseDecimal(key); }
    }

    internal sealed class StringCodec : Codec<string>
    {
        public StringCodec() : base(4, 4, 4) { }

        public override void Put(Writer w, int bas, int slot, string v)
        {
            if (v == null)
                throw Codecs.Null();
            w.String(bas, slot, v);
        }

        public override string Get(Reader r, int bas, int slot) { return r.String(bas, slot, ""); }

        public override void Append(Writer w, string v)
        {
            if (v == null)
                throw Codecs.Null();
            w.AppendString(v);
        }

        public override string Take(Reader r) { return r.FinalString(""); }
        public override void Text(TextBuilder t, string v) { t.String(v); }
        public override void Json(JsonBuilder j, string v) { j.String(v); }
        public override bool HasKeyText { get { return true; } }
        public override void JsonKey(JsonBuilder j, string v) { j.KeyString(v); }
        public override string FromJson(JsonSource r) { return r.String(); }

        public override string FromJsonKey(JsonSource r, string key)
        {
            r.Spend(Utf8.Length(key));
            return key;
        }
        public override void Check(Reader r, int bas, int slot) { r.CheckString(bas, slot, ""); }
        public override void CheckFinal(Reader r) { r.FinalCheckString(""); }
    }

    internal sealed class BytesCodec : Codec<byte[]>
    {
        public BytesCodec() : base(4, 4, 4) { }

        public override void Put(Writer w, int bas, int slot, byte[] v)
        {
            if (v == null)
                throw Codecs.Null();
            w.Bytes(bas, slot, v, v.Length);
        }

        public override byte[] Get(Reader r, int bas, int slot) { return r.Bytes(bas, slot, ""); }

        public override void Append(Writer w, byte[] v)
        {
            if (v == null)
                throw Codecs.Null();
            w.AppendBlock(v, v.Length);
        }

        public override byte[] Take(Reader r) { return r.FinalBytes(""); }
        public override void Text(TextBuilder t, byte[] v) { t.Bytes(v.Length); }
        public override void Json(JsonBuilder j, byte[] v) { j.Bytes(v); }
        public override bool HasKeyText { get { return true; } }
        public override void JsonKey(JsonBuilder j, byte[] v) { j.KeyBytes(v); }
        public override byte[] FromJson(JsonSource r) { return r.Bytes(); }

        public override byte[] FromJsonKey(JsonSource r, string key)
        {
            byte[] b = r.Base64(key);
            r.Spend(b.Length);
            return b;
        }
        public override void Check(Reader r, int bas, int slot) { r.CheckBytes(bas, slot, ""); }
        public override void CheckFinal(Reader r) { r.FinalCheckBytes(""); }
    }

    /// <summary>An optional of a value (docs/format.md 3.3): its checks, the same whether the value
    /// is a struct held as <c>T?</c> or a class held as a null reference.</summary>
    internal abstract class OptionalCodec<T, TOptional> : Codec<TOptional>
    {
        protected readonly Codec<T> _value;

        protected OptionalCodec(Codec<T> value) : base(5, 1, 1) { _value = value; }

        public override void Check(Reader r, int bas, int slot)
        {
            int p = r.Optional(bas, slot, _value.Slot, "");
            if (p >= 0)
                _value.Check(r, p, p);
        }

        public override void CheckFinal(Reader r)
        {
            if (r.FinalHas(""))
                _value.CheckFinal(r);
        }
    }

    internal sealed class OptionalValueCodec<T> : OptionalCodec<T, T?> where T : struct
    {
        public OptionalValueCodec(Codec<T> value) : base(value) { }

        public override void Put(Writer w, int bas, int slot, T? v)
        {
            if (v.HasValue)
            {
                int p = w.Optional(bas, slot, _value.Slot);
                _value.Put(w, p, p, v.Value);
            }
        }

        public override T? Get(Reader r, int bas, int slot)
        {
            int p = r.Optional(bas, slot, _value.Slot, "");
            return p < 0 ? (T?)null : _value.Get(r, p, p);
        }

        public override void Append(Writer w, T? v)
        {
            w.AppendBool(v.HasValue);
            if (v.HasValue)
                _value.Append(w, v.Value);
        }

        public override T? Take(Reader r) { return r.FinalHas("") ? _value.Take(r) : (T?)null; }

        public override void Text(TextBuilder t, T? v)
        {
            if (v.HasValue)
                _value.Text(t, v.Value);
            else
                t.Raw("null");
        }

        public override T? FromJson(JsonSource r) { return r.IsNull ? (T?)null : _value.FromJson(r); }

        public override void Json(JsonBuilder j, T? v)
        {
            if (v.HasValue)
                _value.Json(j, v.Value);
            else
                j.Null();
        }
    }

    internal sealed class OptionalRefCodec<T> : OptionalCodec<T, T> where T : class
    {
        public OptionalRefCodec(Codec<T> value) : base(value) { }

        public override void Put(Writer w, int bas, int slot, T v)
        {
            if (v != null)
            {
                int p = w.Optional(bas, slot, _value.Slot);
                _value.Put(w, p, p, v);
            }
        }

        public override T Get(Reader r, int bas, int slot)
        {
            int p = r.Optional(bas, slot, _value.Slot, "");
            return p < 0 ? null : _value.Get(r, p, p);
        }

        public override void Append(Writer w, T v)
        {
            w.AppendBool(v != null);
            if (v != null)
                _value.Append(w, v);
        }

        public override T Take(Reader r) { return r.FinalHas("") ? _value.Take(r) : null; }

        public override void Text(TextBuilder t, T v)
        {
            if (v != null)
                _value.Text(t, v);
            else
                t.Raw("null");
        }

        public override T FromJson(JsonSource r) { return r.IsNull ? null : _value.FromJson(r); }

        public override void Json(JsonBuilder j, T v)
        {
            if (v != null)
                _value.Json(j, v);
            else
                j.Null();
        }
    }

    internal static class Arrays
    {
        // docs/limits.md 3: max(1, its share), where struct elements have none
        public static long Cost<T>(Codec<T> e, int n) { return e.Cost == 0 || (long)e.FinalMin * n == 0 ? 1 : (long)e.FinalMin * n; }

        public static void Text<T>(TextBuilder t, Codec<T> e, T[] v)
        {
            t.Count(v.Length, "[");
            for (int i = 0; i < v.Length; i++)
            {
                if (i > 0)
                    t.Byte((byte)',');
                e.Text(t, v[i]);
            }
            t.Raw("]");
        }

        public static void Json<T>(JsonBuilder j, Codec<T> e, T[] v)
        {
            j.Raw('[');
            for (int i = 0; i < v.Length; i++)
            {
                if (i > 0)
                    j.Raw(',');
                try { e.Json(j, v[i]); }
                catch (EncodeException x) { throw x.InIndex(i); }
            }
            j.Raw(']');
        }

        /// <summary>A JSON array of exactly <paramref name="n"/> elements (docs/limits.md 7).</summary>
        public static T[] FromJson<T>(JsonSource r, Codec<T> e, int n)
        {
            r.BeginArray();
            var a = new T[n];
            int i = 0;
            while (r.NextItem())
            {
                if (i < n)
                {
                    try { a[i] = e.FromJson(r); }
                    catch (DecodeException x) { throw x.InIndex(i); }
                }
                else
                    r.Skip();
                i++;
            }
            if (i != n)
                throw r.Malformed("expected " + n + " elements, got " + i);
            return a;
        }

        public static void CheckLength(Array v, int n)
        {
            if (v == null)
                throw Codecs.Null();
            if (v.Length != n)
                throw new EncodeException(ErrorKind.Invalid, "a fixed array of " + n + " elements holds " + v.Length, "");
        }
    }

    internal sealed class FixedArrayCodec<T> : FixedCodec<T[]>
    {
        private readonly FixedCodec<T> _e;
        private readonly int _n;

        public FixedArrayCodec(FixedCodec<T> e, int n) : base(e.Slot * n) { _e = e; _n = n; }

        public override T[] At(byte[] b, int at)
        {
            var a = new T[_n];
            for (int i = 0; i < _n; i++)
                a[i] = _e.At(b, at + i * _e.Slot);
            return a;
        }

        public override void Text(TextBuilder t, T[] v) { Arrays.Text(t, _e, v); }
        public override void Json(JsonBuilder j, T[] v) { Arrays.CheckLength(v, _n); Arrays.Json(j, _e, v); }
        public override T[] FromJson(JsonSource r) { return Arrays.FromJson(r, _e, _n); }

        public override void Store(Writer w, int at, T[] v)
        {
            Arrays.CheckLength(v, _n);
            for (int i = 0; i < _n; i++)
                _e.Store(w, at + i * _e.Slot, v[i]);
        }
    }

    internal sealed class ArrayCodec<T> : Codec<T[]>
    {
        private readonly Codec<T> _e;
        private readonly int _n;

        public ArrayCodec(Codec<T> e, int n) : base(e.Slot * n, e.FinalMin * n, Arrays.Cost(e, n)) { _e = e; _n = n; }

        public override void Text(TextBuilder t, T[] v) { Arrays.Text(t, _e, v); }
        public override void Json(JsonBuilder j, T[] v) { Arrays.CheckLength(v, _n); Arrays.Json(j, _e, v); }
        public override T[] FromJson(JsonSource r) { return Arrays.FromJson(r, _e, _n); }

        public override void Put(Writer w, int bas, int slot, T[] v)
        {
            Arrays.CheckLength(v, _n);
            for (int i = 0; i < _n; i++)
            {
                try { _e.Put(w, bas, slot + i * _e.Slot, v[i]); }
                catch (EncodeException e) { throw e.InIndex(i); }
            }
        }

        public override T[] Get(Reader r, int bas, int slot)
        {
            var a = new T[_n];
            for (int i = 0; i < _n; i++)
            {
                try { a[i] = _e.Get(r, bas, slot + i * _e.Slot); }
                catch (DecodeException e) { throw e.InIndex(i); }
            }
            return a;
        }

        public override void Append(Writer w, T[] v)
        {
            Arrays.CheckLength(v, _n);
            for (int i = 0; i < _n; i++)
            {
                try { _e.Append(w, v[i]); }
                catch (EncodeException e) { throw e.InIndex(i); }
            }
        }

        public override T[] Take(Reader r)
        {
            var a = new T[_n];
            for (int i = 0; i < _n; i++)
            {
                try { a[i] = _e.Take(r); }
                catch (DecodeException e) { throw e.InIndex(i); }
            }
            return a;
        }

        public override void Check(Reader r, int bas, int slot)
        {
            for (int i = 0; i < _n; i++)
            {
                try { _e.Check(r, bas, slot + i * _e.Slot); }
                catch (DecodeException e) { throw e.InIndex(i); }
            }
        }

        public override void CheckFinal(Reader r)
        {
            for (int i = 0; i < _n; i++)
            {
                try { _e.CheckFinal(r); }
                catch (DecodeException e) { throw e.InIndex(i); }
            }
        }
    }

    /// <summary>What the collections share: the elements written and read one by one.</summary>
    /// <summary>
    /// A collection of elements (a vector, list, set, map or hash), walked with its own struct enumerator
    /// (<typeparamref name="TEnumerator"/>, from <c>enumerate</c>): a foreach over ICollection&lt;T&gt; would box it, an
    /// allocation on every write (a SortedSet's or SortedDictionary's enumerator still allocates its stack of nodes:
    /// .NET has no other walk of them; an empty one is not walked).
    /// </summary>
    public abstract class CollectionCodec<TCollection, T, TEnumerator> : Codec<TCollection>
        where TCollection : class, ICollection<T> where TEnumerator : struct, IEnumerator<T>
    {
        protected readonly Codec<T> E;
        private readonly string _open, _close;
        private readonly Func<TCollection, TEnumerator> _enumerate;

        protected CollectionCodec(Codec<T> element, Func<TCollection, TEnumerator> enumerate, string open, string close) : base(4, 4, 4)
        {
            E = element;
            _enumerate = enumerate;
            _open = open;
            _close = close;
        }

        /// <summary>The collection's enumerator (a struct: walk it in a local, never through an interface).</summary>
        protected TEnumerator Enumerate(TCollection c) { return _enumerate(c); }

        /// <summary>The count, the elements between the collection's brackets (docs/format.md 9).</summary>
        public override void Text(TextBuilder t, TCollection v)
        {
            t.Count(v.Count, _open);
            TEnumerator e = Enumerate(v);
            for (int i = 0; e.MoveNext(); i++)
            {
                if (i > 0)
                    t.Byte((byte)',');
                E.Text(t, e.Current);
            }
            t.Raw(_close);
        }

        /// <summary>The elements of a JSON array, each charged its element cost.</summary>
        public override TCollection FromJson(JsonSource r)
        {
            r.BeginArray();
            TCollection c = Make(0);
            int i = 0;
            while (r.NextItem())
            {
                r.Spend(E.Cost);
                T x;
                try { x = E.FromJson(r); }
                catch (DecodeException e) { throw e.InIndex(i); }
                if (!Add(c, x))
                    throw new DecodeException(ErrorKind.Duplicate, "two elements read as the same element", "", -1).InIndex(i);
                i++;
            }
            return c;
        }

        /// <summary>A JSON array of the elements.</summary>
        public override void Json(JsonBuilder j, TCollection v)
        {
            if (v == null)
                throw Codecs.Null();
            j.Raw('[');
            if (v.Count == 0)
            {
                j.Raw(']');
                return;
            }
            TEnumerator all = Enumerate(v);
            for (int i = 0; all.MoveNext(); i++)
            {
                if (i > 0)
                    j.Raw(',');
                try { E.Json(j, all.Current); }
                catch (EncodeException e) { throw e.InIndex(i); }
            }
            j.Raw(']');
        }

        /// <summary>An empty collection to read into, sized for <paramref name="n"/> elements at most.</summary>
        protected abstract TCollection Make(int n);

        /// <summary>Adds an element read at <paramref name="at"/>; false when its key is held already.</summary>
        protected virtual bool Add(TCollection c, T v) { c.Add(v); return true; }

        public override void Put(Writer w, int bas, int slot, TCollection v)
        {
            if (v == null)
                throw Codecs.Null();
            int first = w.Vector(bas, slot, v.Count, E.Slot);
            if (v.Count == 0)
                return;     // no enumerator: a sorted set's or map's allocates
            TEnumerator all = Enumerate(v);
            for (int i = 0; all.MoveNext(); i++)
            {
                try { E.Put(w, bas, first + i * E.Slot, all.Current); }
                catch (EncodeException e) { throw e.InIndex(i); }
            }
        }

        public override void Append(Writer w, TCollection v)
        {
            if (v == null)
                throw Codecs.Null();
            w.AppendUInt32((uint)v.Count);
            if (v.Count == 0)
                return;
            TEnumerator all = Enumerate(v);
            for (int i = 0; all.MoveNext(); i++)
            {
                try { E.Append(w, all.Current); }
                catch (EncodeException e) { throw e.InIndex(i); }
            }
        }

        public override TCollection Get(Reader r, int bas, int slot)
        {
            int n;
            int first = r.Vector(bas, slot, E.Slot, E.Cost, "", out n);
            TCollection c = Make(n);
            for (int i = 0; i < n; i++)
            {
                int at = first + i * E.Slot;
                T x;
                try { x = E.Get(r, bas, at); }
                catch (DecodeException e) { throw e.InIndex(i); }
                if (!Add(c, x))
                    throw Reader.DuplicateKey("", at).InIndex(i);
            }
            return c;
        }

        public override TCollection Take(Reader r)
        {
            // elements that take no bytes are bounded by the budget alone: their count may pass int's range
            long n = r.FinalCount(E.FinalMin, E.Cost, "");
            TCollection c = Make((int)Math.Min(n, int.MaxValue));
            for (long i = 0; i < n; i++)
            {
                int at = r.Position;
                T x;
                try { x = E.Take(r); }
                catch (DecodeException e) { throw e.InIndex(i); }
                if (!Add(c, x))
                    throw Reader.DuplicateKey("", at).InIndex(i);
            }
            return c;
        }
    }

    internal sealed class VectorCodec<T> : CollectionCodec<List<T>, T, List<T>.Enumerator>
    {
        public VectorCodec(Codec<T> element, string open, string close) : base(element, v => v.GetEnumerator(), open, close) { }

        // a few elements ahead, never a count of elements that take no bytes (bounded by the budget alone)
        protected override List<T> Make(int n) { return new List<T>(Math.Min(n, 1024)); }

        public override void Check(Reader r, int bas, int slot)
        {
            int n;
            int first = r.Vector(bas, slot, E.Slot, E.Cost, "", out n);
            for (int i = 0; i < n; i++)
            {
                try { E.Check(r, bas, first + i * E.Slot); }
                catch (DecodeException e) { throw e.InIndex(i); }
            }
        }

        public override void CheckFinal(Reader r)
        {
            long n = r.FinalCount(E.FinalMin, E.Cost, "");
            for (long i = 0; i < n; i++)
            {
                try { E.CheckFinal(r); }
                catch (DecodeException e) { throw e.InIndex(i); }
            }
        }
    }

    internal sealed class SetCodec<T> : CollectionCodec<SortedSet<T>, T, SortedSet<T>.Enumerator>
    {
        private readonly IComparer<T> _order;

        public SetCodec(Codec<T> element, IComparer<T> order) : base(element, v => v.GetEnumerator(), "{", "}") { _order = order; }

        protected override SortedSet<T> Make(int n) { return new SortedSet<T>(_order); }
        protected override bool Add(SortedSet<T> c, T v) { return c.Add(v); }
    }

    /// <summary>A map entry as a key slot followed by a value slot.</summary>
    internal sealed class EntryCodec<TKey, TValue> : Codec<KeyValuePair<TKey, TValue>>
    {
        private readonly Codec<TKey> _k;
        private readonly Codec<TValue> _v;

        public EntryCodec(Codec<TKey> k, Codec<TValue> v) : base(k.Slot + v.Slot, k.FinalMin + v.FinalMin, k.Cost + v.Cost)
        {
            _k = k;
            _v = v;
        }

        public override void Put(Writer w, int bas, int slot, KeyValuePair<TKey, TValue> e)
        {
            _k.Put(w, bas, slot, e.Key);
            _v.Put(w, bas, slot + _k.Slot, e.Value);
        }

        public override KeyValuePair<TKey, TValue> Get(Reader r, int bas, int slot)
        {
            TKey k = _k.Get(r, bas, slot);
            return new KeyValuePair<TKey, TValue>(k, _v.Get(r, bas, slot + _k.Slot));
        }

        public override void Append(Writer w, KeyValuePair<TKey, TValue> e)
        {
            _k.Append(w, e.Key);
            _v.Append(w, e.Value);
        }

        public override KeyValuePair<TKey, TValue> Take(Reader r)
        {
            TKey k = _k.Take(r);
            return new KeyValuePair<TKey, TValue>(k, _v.Take(r));
        }

        /// <summary>An entry as a [key, value] pair (a map whose keys are no member names).</summary>
        public override void Json(JsonBuilder j, KeyValuePair<TKey, TValue> e)
        {
            j.Raw('[');
            _k.Json(j, e.Key);
            j.Raw(',');
            _v.Json(j, e.Value);
            j.Raw(']');
        }

        public override KeyValuePair<TKey, TValue> FromJson(JsonSource r)
        {
            r.BeginArray();
            if (!r.NextItem())
                throw r.Malformed("expected a [key, value] pair");
            TKey k = _k.FromJson(r);
            if (!r.NextItem())
                throw r.Malformed("expected a [key, value] pair");
            var e = new KeyValuePair<TKey, TValue>(k, _v.FromJson(r));
            if (r.NextItem())
                throw r.Malformed("expected a [key, value] pair");
            return e;
        }

        /// <summary>An entry of an object: its key from the member name, its value.</summary>
        public KeyValuePair<TKey, TValue> FromMember(JsonSource r, string name)
        {
            TKey k = _k.FromJsonKey(r, name);
            return new KeyValuePair<TKey, TValue>(k, _v.FromJson(r));
        }

        /// <summary>Whether the entries are members of an object.</summary>
        public bool Members { get { return _k.HasKeyText; } }

        /// <summary>An entry as a member: the key's text, its value.</summary>
        public void Member(JsonBuilder j, KeyValuePair<TKey, TValue> e)
        {
            _k.JsonKey(j, e.Key);
            _v.Json(j, e.Value);
        }

        public override void Text(TextBuilder t, KeyValuePair<TKey, TValue> e)
        {
            _k.Text(t, e.Key);
            t.Raw("->");
            _v.Text(t, e.Value);
        }
    }

    internal sealed class MapCodec<TMap, TKey, TValue, TEnumerator> : CollectionCodec<TMap, KeyValuePair<TKey, TValue>, TEnumerator>
        where TMap : class, IDictionary<TKey, TValue> where TEnumerator : struct, IEnumerator<KeyValuePair<TKey, TValue>>
    {
        private readonly Func<TMap> _make;

        public MapCodec(Codec<TKey> k, Codec<TValue> v, Func<TMap> make, Func<TMap, TEnumerator> enumerate, string open, string close)
            : base(new EntryCodec<TKey, TValue>(k, v), enumerate, open, close)
        {
            _make = make;
        }

        protected override TMap Make(int n) { return _make(); }

        /// <summary>An object keyed by the keys' text, or an array of [key, value] pairs (struct keys).</summary>
        public override TMap FromJson(JsonSource r)
        {
            var entries = (EntryCodec<TKey, TValue>)E;
            if (!entries.Members)
                return base.FromJson(r);
            r.BeginObject();
            TMap m = _make();
            string name;
            for (int i = 0; (name = r.NextMember()) != null; i++)
            {
                r.Spend(E.Cost);
                KeyValuePair<TKey, TValue> e;
                try { e = entries.FromMember(r, name); }
                catch (DecodeException x) { throw x.InField(JsonSource.Quote(name)); }
                if (!Add(m, e))
                    throw new DecodeException(ErrorKind.Duplicate, "two keys read as the same key", "", -1).InField(JsonSource.Quote(name));
            }
            return m;
        }

        public override void Json(JsonBuilder j, TMap v)
        {
            var entries = (EntryCodec<TKey, TValue>)E;
            if (!entries.Members)
            {
                base.Json(j, v);
                return;
            }
            if (v == null)
                throw Codecs.Null();
            j.Raw('{');
            if (v.Count == 0)
            {
                j.Raw('}');
                return;
            }
            TEnumerator all = Enumerate(v);
            for (int i = 0; all.MoveNext(); i++)
            {
                if (i > 0)
                    j.Raw(',');
                try { entries.Member(j, all.Current); }
                catch (EncodeException x) { throw x.InIndex(i); }
            }
            j.Raw('}');
        }

        protected override bool Add(TMap c, KeyValuePair<TKey, TValue> e)
        {
            if (c.ContainsKey(e.Key))
                return false;
            c.Add(e.Key, e.Value);
            return true;
        }
    }
}

namespace Fbe
{
    /// <summary>Map keys read from their member names (docs/format.md 8.1).</summary>
    internal static class JsonKeys
    {

        public static bool Bool(JsonSource r, string k)
        {
            if (k == "1" || k == "true")
                return true;
            if (k == "0" || k == "false")
                return false;
            throw r.Malformed("invalid bool key \"" + JsonSource.Quote(k) + "\"");
        }

        public static System.Numerics.BigInteger Integer(JsonSource r, string k, System.Numerics.BigInteger min, System.Numerics.BigInteger max, string type)
        {
            if (k.Length > 40 || !IsDigits(k))
                throw r.Malformed("invalid " + type + " key \"" + JsonSource.Quote(k) + "\"");
            var v = JsonSource.ParseInteger(k);
            if (v < min || v > max)
                throw r.Malformed("\"" + k + "\" is out of range for " + type);
            return v;
        }

        /// <summary>Whether <paramref name="k"/> is -?[0-9]+.</summary>
        private static bool IsDigits(string k)
        {
            int start = k.StartsWith("-", StringComparison.Ordinal) ? 1 : 0;
            if (k.Length == start)
                return false;
            for (int i = start; i < k.Length; i++)
                if (k[i] < '0' || k[i] > '9')
                    return false;
            return true;
        }

        public static double Double(JsonSource r, string k, bool single)
        {
            double v = 0;
            if (k == "NaN")
                return double.NaN;
            if (k == "Infinity")
                return double.PositiveInfinity;
            if (k == "-Infinity")
                return double.NegativeInfinity;
            bool negative = k.StartsWith("-", StringComparison.Ordinal);
            string digits = negative ? k.Substring(1) : k;
            bool number = k.Length <= 400 && (JsonSource.IsNumber(k)    // the nearest double (Mono's double.Parse is not correctly rounded)
                ? !double.IsInfinity(v = Numbers.ParseDouble(digits))
                : double.TryParse(digits, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out v));
            if (!number || double.IsInfinity(v) || single && v > 3.4028234663852886e38)
                throw r.Malformed("invalid " + (single ? "float" : "double") + " key \"" + JsonSource.Quote(k) + "\"");
            return negative ? -v : v;
        }

        /// <summary>A char: its byte (0..255), or the original's signed-char forms (-128..-1, 4294967168..4294967295).</summary>
        public static byte Char(JsonSource r, System.Numerics.BigInteger v)
        {
            if (v >= 0 && v <= 255 || v < 0 || v >= 4294967168)
                return (byte)(v & 0xFF);
            throw r.Malformed(v + " is out of range for char");
        }
    }

    /// <summary>Default values the generated classes start with.</summary>
    public static class Defaults
    {
        /// <summary>A fixed array of <paramref name="length"/> values, each <paramref name="make"/>().</summary>
        public static T[] Array<T>(int length, Func<T> make)
        {
            var a = new T[length];
            for (int i = 0; i < length; i++)
                a[i] = make();
            return a;
        }
    }
}
