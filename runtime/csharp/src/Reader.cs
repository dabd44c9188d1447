using System;

namespace Fbe
{
    /// <summary>
    /// Checks and reads one root (docs/format.md 3 and 4) under the limits of docs/limits.md: every block inside the
    /// root, versioned blocks in allocation order (each starts at or after the end of the block read before it, so no
    /// byte is decoded twice), every count bounded by the bytes left, nesting bounded by MaxDepth and every value
    /// materialized charged to the decode budget. Verify is deserialize without the value: both use this reader, so
    /// verify accepts exactly what deserialize accepts (docs/limits.md 4). Errors name the field being read and the
    /// absolute offset; generated code puts the fields that hold the struct in front as the error goes out.
    /// </summary>
    public sealed class Reader
    {
        private readonly byte[] _data;
        private readonly int _size;
        private readonly int _maxDepth;
        private int _mark;
        private long _budget;
        private int _depth;
        private int _pos;

        private Reader(byte[] data, int size, Limits limits)
        {
            _data = data;
            _size = size;
            _maxDepth = limits.MaxDepth;
            _budget = limits.Budget(size);
            _mark = 8;
            _pos = 8;
        }

        private Reader(Reader r)
        {
            _data = r._data;
            _size = r._size;
            _maxDepth = r._maxDepth;
            _mark = r._mark;
            _budget = r._budget;
            _depth = r._depth;
            _pos = r._pos;
        }

        /// <summary>A copy of this reader at the same place (a check that must not move it).</summary>
        public Reader Clone() { return new Reader(this); }

        /// <summary>Checks a versioned root's header (at least 16 bytes, a total size that fits the buffer).</summary>
        public static Reader Versioned(byte[] data, int length, Limits limits)
        {
            if (length < 8)
                throw new DecodeException("versioned root shorter than 8 bytes", "", 0);
            uint total = GetUInt32(data, 0);
            if (total < 16)
                throw new DecodeException("versioned root size " + total + " below 16", "", 0);
            if (total > length)
                throw new DecodeException("versioned root size " + total + " beyond the buffer of " + length + " bytes", "", 0);
            return new Reader(data, (int)total, limits);
        }

        /// <summary>Checks a final root's header (at least 8 bytes, the expected type id, a size that fits the buffer)
        /// and starts reading its fields at position 8.</summary>
        public static Reader FinalRoot(byte[] data, int length, uint typeId, Limits limits)
        {
            if (length < 8)
                throw new DecodeException("final root shorter than 8 bytes", "", 0);
            uint size = GetUInt32(data, 0);
            if (size < 8)
                throw new DecodeException("final root size " + size + " below 8", "", 0);
            uint tid = GetUInt32(data, 4);
            if (tid != typeId)
                throw new DecodeException("type id " + tid + " where " + typeId + " was expected", "", 4);
            if (size > length)
                throw new DecodeException("final root size " + size + " beyond the buffer of " + length + " bytes", "", 0);
            return new Reader(data, (int)size, limits);
        }

        /// <summary>The root's bytes (the buffer: the root is its first Size bytes).</summary>
        public byte[] Data { get { return _data; } }

        /// <summary>The root's size.</summary>
        public int Size { get { return _size; } }

        /// <summary>The budget left, in bytes.</summary>
        public long Budget { get { return _budget; } }

        /// <summary>The current struct level (0 outside the root).</summary>
        public int Depth { get { return _depth; } }

        /// <summary>The final model's cursor: the position of the next value.</summary>
        public int Position { get { return _pos; } }

        public static bool GetBool(byte[] b, int p) { return b[p] != 0; }
        public static byte GetByte(byte[] b, int p) { return b[p]; }
        public static sbyte GetSByte(byte[] b, int p) { return (sbyte)b[p]; }
        public static ushort GetUInt16(byte[] b, int p) { return (ushort)(b[p] | b[p + 1] << 8); }
        public static short GetInt16(byte[] b, int p) { return (short)GetUInt16(b, p); }
        public static uint GetUInt32(byte[] b, int p) { return (uint)(b[p] | b[p + 1] << 8 | b[p + 2] << 16 | b[p + 3] << 24); }
        public static int GetInt32(byte[] b, int p) { return (int)GetUInt32(b, p); }
        public static ulong GetUInt64(byte[] b, int p) { return GetUInt32(b, p) | (ulong)GetUInt32(b, p + 4) << 32; }
        public static long GetInt64(byte[] b, int p) { return (long)GetUInt64(b, p); }
        /// <summary>A float bit for bit, but a signalling NaN (quiet bit clear) reads quieted, its sign and the
        /// rest of its payload kept (docs/format.md 1): the value every language reads, as the widening to a
        /// double makes it in those that hold a float as one.</summary>
        public static float GetSingle(byte[] b, int p)
        {
            uint bits = GetUInt32(b, p);
            if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
                bits |= 0x00400000u; // a NaN: the quiet bit set
            return Bits.UInt32ToSingle(bits);
        }
        public static double GetDouble(byte[] b, int p) { return BitConverter.Int64BitsToDouble(GetInt64(b, p)); }
        public static Guid GetGuid(byte[] b, int p) { return Uuid.Read(b, p); }

        /// <summary>Charges <paramref name="cost"/> bytes for a value materialized at <paramref name="at"/>
        /// in <paramref name="field"/> (docs/limits.md 3).</summary>
        public void Spend(long cost, int at, string field)
        {
            if (cost > _budget)
                throw new DecodeException(ErrorKind.Budget, "decode budget exceeded", field, at);
            _budget -= cost;
        }

        /// <summary>Whether the budget left pays for <paramref name="cost"/> bytes: generated code asks before it
        /// makes a value whose default is large (docs/limits.md 3).</summary>
        public bool Affords(long cost) { return _budget >= cost; }

        private void EnterAt(long cost, int at)
        {
            if (_depth >= _maxDepth)
                throw new DecodeException(ErrorKind.Depth, "structs nested deeper than " + _maxDepth, "", at);
            Spend(cost, at, "");
            _depth++;
        }

        /// <summary>Leaves a struct entered with StructBody or Enter.</summary>
        public void Leave() { _depth--; }

        /// <summary>The decimal at <paramref name="at"/>, its flags checked (docs/format.md 2.4).</summary>
        public decimal Decimal(int at, string field) { return Decimals.Read(_data, at, field); }

        private long U32At(long at, string what, string field)
        {
            if (at + 4 > _size)
                throw new DecodeException(what + " size beyond the end of the buffer", field, at);
            return GetUInt32(_data, (int)at);
        }

        private DecodeException Backwards(string what, long at, string field)
        {
            return new DecodeException(what + " at " + at + " before the end of the previous block (" + _mark +
                "): out-of-line blocks must follow each other in allocation order", field, at);
        }

        private int Length(string what, long p, string field)
        {
            long n = U32At(p, what, field);
            if (n > _size - p - 4)
                throw new DecodeException(what + " of " + n + " bytes beyond the end of the buffer", field, p);
            Spend(n, (int)p, field);
            return (int)n;
        }

        private long Count(long p, int item, long cost, string field)
        {
            long n = U32At(p, "collection", field);
            if (n * item > _size - p - 4)
                throw new DecodeException("count " + n + " exceeds the buffer", field, p);
            Spend(n * cost, (int)p, field);
            return n;
        }

        // ------------------------------------------------------------ versioned model

        /// <summary>Enters the struct whose body the slot at <paramref name="slot"/> points to (from
        /// <paramref name="bas"/>): checks the header, the type id, allocation order, the depth and the budget
        /// (<paramref name="cost"/>). Returns the body's position; its size is <paramref name="size"/>. The caller reads
        /// the fields the size holds and calls Leave. An error here is the struct's own (no field).</summary>
        public int StructBody(int bas, int slot, uint typeId, long cost, out int size)
        {
            long off = GetUInt32(_data, slot);
            long p = bas + off;
            if (off == 0)
                throw new DecodeException("struct offset 0", "", slot);
            if (p < _mark)
                throw Backwards("struct body", p, "");
            if (p + 8 > _size)
                throw new DecodeException("struct header beyond the end of the buffer", "", p);
            long n = GetUInt32(_data, (int)p);
            if (n < 8)
                throw new DecodeException("struct body size " + n + " below 8", "", p);
            if (n > _size - p)
                throw new DecodeException("struct body of " + n + " bytes beyond the end of the buffer", "", p);
            uint tid = GetUInt32(_data, (int)p + 4);
            if (tid != typeId)
                throw new DecodeException("type id " + tid + " where " + typeId + " was expected", "", p);
            _mark = (int)(p + n);
            EnterAt(cost, (int)p);
            size = (int)n;
            return (int)p;
        }

        /// <summary>The position of the block a slot's offset points to (from <paramref name="bas"/>), at or after the
        /// end of the block read before it; -1 for offset 0 (empty).</summary>
        private long Block(string what, int bas, int slot, string field)
        {
            long off = GetUInt32(_data, slot);
            if (off == 0)
                return -1;
            long p = bas + off;
            if (p < _mark)
                throw Backwards(what, p, field);
            return p;
        }

        private int Payload(string what, int bas, int slot, string field, out int n)
        {
            long p = Block(what, bas, slot, field);
            n = 0;
            if (p < 0)
                return 0;
            n = Length(what, p, field);
            _mark = (int)p + 4 + n;
            return (int)p + 4;
        }

        /// <summary>The string the slot at <paramref name="slot"/> points to (offset 0: empty).</summary>
        public string String(int bas, int slot, string field)
        {
            int n;
            int p = Payload("string", bas, slot, field, out n);
            return n == 0 ? "" : Utf8.Decode(_data, p, n);
        }

        /// <summary>Checks the string the slot points to as String reads it.</summary>
        public void CheckString(int bas, int slot, string field)
        {
            int n;
            Payload("string", bas, slot, field, out n);
        }

        /// <summary>The bytes the slot at <paramref name="slot"/> points to (offset 0: empty).</summary>
        public byte[] Bytes(int bas, int slot, string field)
        {
            int n;
            int p = Payload("bytes", bas, slot, field, out n);
            var b = new byte[n];
            System.Buffer.BlockCopy(_data, p, b, 0, n);
            return b;
        }

        /// <summary>Checks the bytes the slot points to as Bytes reads them.</summary>
        public void CheckBytes(int bas, int slot, string field)
        {
            int n;
            Payload("bytes", bas, slot, field, out n);
        }

        /// <summary>Checks the collection block the slot at <paramref name="slot"/> points to: <paramref name="n"/>
        /// slots of <paramref name="item"/> bytes after the count, each element costing <paramref name="cost"/>
        /// (0 for struct elements). Returns the position of the first slot (offset 0: empty).</summary>
        public int Vector(int bas, int slot, int item, long cost, string field, out int n)
        {
            long p = Block("collection", bas, slot, field);
            n = 0;
            if (p < 0)
                return 0;
            n = (int)Count(p, item, cost, field);     // a versioned slot takes bytes: n fits the buffer
            _mark = (int)(p + 4 + (long)n * item);
            return (int)p + 4;
        }

        /// <summary>The optional slot at <paramref name="slot"/>: absent (-1), or present with the position of its
        /// value slot of <paramref name="size"/> bytes, which is the value's base (docs/format.md 3.4).</summary>
        public int Optional(int bas, int slot, int size, string field)
        {
            if (_data[slot] == 0)
                return -1;
            long off = GetUInt32(_data, slot + 1);
            if (off == 0)
                throw new DecodeException("present optional with offset 0", field, slot);
            long p = bas + off;
            if (p < _mark)
                throw Backwards("optional value", p, field);
            if (size > _size - p)
                throw new DecodeException("value slot beyond the end of the buffer", field, p);
            _mark = (int)p + size;
            return (int)p;
        }

        // ------------------------------------------------------------ final model

        /// <summary>Checks that the fields covered the root exactly (docs/format.md 5.2).</summary>
        public void EndFinal()
        {
            if (_pos != _size)
                throw new DecodeException("final root covers " + _pos + " bytes, its size says " + _size, "", 0);
        }

        /// <summary>Claims the next <paramref name="n"/> bytes for one fixed-size value and returns their position.</summary>
        public int Fixed(int n, string field)
        {
            int p = _pos;
            if (n > _size - p)
                throw new DecodeException("value beyond the end of the buffer", field, p);
            _pos = p + n;
            return p;
        }

        /// <summary>Claims the next <paramref name="n"/> bytes, a run of fixed-size fields read at once (the plan's
        /// Run), and returns their position. <paramref name="fields"/> describes the run (name=size, or
        /// name=size*count for an array, comma-separated) and is read only when the run is not all there, to fail as
        /// the fields one by one would.</summary>
        public int Run(int n, string fields)
        {
            int p = _pos;
            if (n > _size - p)
                throw RunBeyond(fields);
            _pos = p + n;
            return p;
        }

        private DecodeException RunBeyond(string fields)
        {
            long p = _pos;
            foreach (string f in fields.Split(','))
            {
                int eq = f.IndexOf('=');
                string name = f.Substring(0, eq), size = f.Substring(eq + 1);
                int star = size.IndexOf('*');
                long one = long.Parse(star < 0 ? size : size.Substring(0, star));
                long count = star < 0 ? 1 : long.Parse(size.Substring(star + 1));
                for (long i = 0; i < count; i++)
                {
                    if (one > _size - p)
                        return new DecodeException("value beyond the end of the buffer", name, p);
                    p += one;
                }
            }
            return new DecodeException("value beyond the end of the buffer", "", _pos);
        }

        private int FinalPayload(string what, string field, out int n)
        {
            int p = _pos;
            n = Length(what, p, field);
            _pos = p + 4 + n;
            return p + 4;
        }

        /// <summary>A length and the bytes of a string at the cursor.</summary>
        public string FinalString(string field)
        {
            int n;
            int p = FinalPayload("string", field, out n);
            return n == 0 ? "" : Utf8.Decode(_data, p, n);
        }

        /// <summary>Checks a string at the cursor.</summary>
        public void FinalCheckString(string field)
        {
            int n;
            FinalPayload("string", field, out n);
        }

        /// <summary>A length and the bytes of a bytes value at the cursor.</summary>
        public byte[] FinalBytes(string field)
        {
            int n;
            int p = FinalPayload("bytes", field, out n);
            var b = new byte[n];
            System.Buffer.BlockCopy(_data, p, b, 0, n);
            return b;
        }

        /// <summary>Checks a bytes value at the cursor.</summary>
        public void FinalCheckBytes(string field)
        {
            int n;
            FinalPayload("bytes", field, out n);
        }

        /// <summary>A collection's count at the cursor; <paramref name="item"/> is the fewest bytes one element takes
        /// (0 for elements that take no bytes, which the budget alone bounds), <paramref name="cost"/> what one
        /// element costs (docs/limits.md 3).</summary>
        public long FinalCount(int item, long cost, string field)
        {
            long n = Count(_pos, item, cost, field);
            _pos += 4;
            return n;
        }

        /// <summary>An optional's presence byte at the cursor.</summary>
        public bool FinalHas(string field)
        {
            if (_pos >= _size)
                throw new DecodeException("optional flag beyond the end of the buffer", field, _pos);
            return _data[_pos++] != 0;
        }

        /// <summary>The decimal at the cursor (16 bytes), its flags checked.</summary>
        public decimal FinalDecimal(string field)
        {
            int p = Fixed(16, field);
            return Decimal(p, field);
        }

        /// <summary>Starts a final-model struct value costing <paramref name="cost"/> bytes (depth and budget); the
        /// caller reads the fields and calls Leave. The error is the struct's own.</summary>
        public void Enter(long cost) { EnterAt(cost, _pos); }

        /// <summary>The error of a set or map entry at <paramref name="at"/> whose key was read before.</summary>
        public static DecodeException DuplicateKey(string field, long at)
        {
            return new DecodeException(ErrorKind.Duplicate, "duplicate key: two entries read as the same key", field, at);
        }
    }
}
