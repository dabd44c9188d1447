using System;

namespace Fbe
{
    /// <summary>
    /// Builds one root in one growing buffer, in the original's allocation order (docs/format.md 3.5):
    /// nothing is inserted in the middle, nothing allocated ahead. A Writer is reused: Reset keeps the
    /// buffer, so serializing into a warm writer allocates nothing. Versioned code allocates blocks
    /// (Alloc, StructBody, String, Vector, Optional) and fills slots at absolute positions (Put*);
    /// final code appends (Append*). A struct nested deeper than MaxDepth is refused where it is
    /// entered (Enter).
    /// </summary>
    public sealed class Writer
    {
        private byte[] _buf;
        private int _size;
        private int _depth;

        public Writer() : this(Limits.DefaultMaxDepth) { }

        /// <summary>An empty writer refusing structs nested deeper than <paramref name="maxDepth"/>.</summary>
        public Writer(int maxDepth)
        {
            _buf = new byte[256];
            MaxDepth = maxDepth;
        }

        /// <summary>The deepest struct nesting written.</summary>
        public int MaxDepth { get; }

        /// <summary>The buffer; the root is its first Size bytes.</summary>
        public byte[] Buffer { get { return _buf; } }

        /// <summary>The number of bytes written so far.</summary>
        public int Size { get { return _size; } }

        /// <summary>Empties the writer, keeping its buffer.</summary>
        public void Reset()
        {
            _size = 0;
            _depth = 0;
        }

        /// <summary>The bytes written, copied out.</summary>
        public byte[] ToArray()
        {
            var b = new byte[_size];
            System.Buffer.BlockCopy(_buf, 0, b, 0, _size);
            return b;
        }

        /// <summary>One struct level deeper; refused beyond MaxDepth (docs/limits.md 1).</summary>
        public void Enter(string typeName)
        {
            if (_depth >= MaxDepth)
                throw new EncodeException(ErrorKind.Depth, "structs nested deeper than " + MaxDepth + " (" + typeName + ")", "");
            _depth++;
        }

        /// <summary>Undoes a successful Enter.</summary>
        public void Leave() { _depth--; }

        private void Reserve(int n)
        {
            long need = (long)_size + n;
            if (need <= _buf.Length)
                return;
            if (need > int.MaxValue - 64)
                throw new EncodeException(ErrorKind.Invalid, "root larger than 2 GiB (a .NET array's limit)", "");
            long cap = Math.Max(need, Math.Min((long)_buf.Length * 2, int.MaxValue - 64));
            Array.Resize(ref _buf, (int)cap);
        }

        /// <summary>Appends <paramref name="n"/> zero bytes and returns their position.</summary>
        public int Alloc(int n)
        {
            Reserve(n);
            int p = _size;
            if (n <= 64)
            {
                // A struct body or a small block: cheaper cleared here than by a call into the runtime.
                byte[] b = _buf;
                for (int i = p, end = p + n; i < end; i++)
                    b[i] = 0;
            }
            else
                Array.Clear(_buf, p, n);
            _size += n;
            return p;
        }

        public void PutBool(int p, bool v) { _buf[p] = v ? (byte)1 : (byte)0; }
        public void PutByte(int p, byte v) { _buf[p] = v; }
        public void PutSByte(int p, sbyte v) { _buf[p] = (byte)v; }
        public void PutInt16(int p, short v) { PutUInt16(p, (ushort)v); }
        public void PutUInt16(int p, ushort v) { _buf[p] = (byte)v; _buf[p + 1] = (byte)(v >> 8); }
        public void PutInt32(int p, int v) { PutUInt32(p, (uint)v); }

        public void PutUInt32(int p, uint v)
        {
            _buf[p] = (byte)v;
            _buf[p + 1] = (byte)(v >> 8);
            _buf[p + 2] = (byte)(v >> 16);
            _buf[p + 3] = (byte)(v >> 24);
        }

        public void PutInt64(int p, long v) { PutUInt64(p, (ulong)v); }

        public void PutUInt64(int p, ulong v)
        {
            PutUInt32(p, (uint)v);
            PutUInt32(p + 4, (uint)(v >> 32));
        }

        public void PutSingle(int p, float v) { PutUInt32(p, Bits.SingleToUInt32(v)); }
        public void PutDouble(int p, double v) { PutInt64(p, BitConverter.DoubleToInt64Bits(v)); }

        /// <summary>Stores a uuid's 16 bytes in the order of its text (docs/format.md 2.3).</summary>
        public void PutGuid(int p, Guid v) { Uuid.Write(v, _buf, p); }

        /// <summary>Stores a decimal's 16 bytes without trailing fraction zeros (docs/format.md 2.4).</summary>
        public void PutDecimal(int p, decimal v) { Decimals.Write(v, _buf, p); }

        public void AppendBool(bool v) { Reserve(1); _buf[_size++] = v ? (byte)1 : (byte)0; }
        public void AppendByte(byte v) { Reserve(1); _buf[_size++] = v; }
        public void AppendSByte(sbyte v) { AppendByte((byte)v); }
        public void AppendInt16(short v) { AppendUInt16((ushort)v); }
        public void AppendUInt16(ushort v) { Reserve(2); PutUInt16(_size, v); _size += 2; }
        public void AppendInt32(int v) { AppendUInt32((uint)v); }
        public void AppendUInt32(uint v) { Reserve(4); PutUInt32(_size, v); _size += 4; }
        public void AppendInt64(long v) { AppendUInt64((ulong)v); }
        public void AppendUInt64(ulong v) { Reserve(8); PutUInt64(_size, v); _size += 8; }
        public void AppendSingle(float v) { AppendUInt32(Bits.SingleToUInt32(v)); }
        public void AppendDouble(double v) { AppendInt64(BitConverter.DoubleToInt64Bits(v)); }
        public void AppendGuid(Guid v) { Reserve(16); PutGuid(_size, v); _size += 16; }
        public void AppendDecimal(decimal v) { Reserve(16); PutDecimal(_size, v); _size += 16; }

        /// <summary>Appends <paramref name="n"/> bytes left as they were and returns their position: for a
        /// caller that writes every one of them (a fixed value's Store), spared Alloc's clearing.</summary>
        public int Extend(int n)
        {
            Reserve(n);
            int p = _size;
            _size += n;
            return p;
        }

        // ------------------------------------------------------------ versioned model

        /// <summary>Starts a versioned root (docs/format.md 3.2): 8 header bytes; the top struct's slot is at 4, base 0.</summary>
        public void BeginVersioned()
        {
            Reset();
            Alloc(8);
        }

        /// <summary>Stores the root's total size.</summary>
        public void EndVersioned() { PutUInt32(0, (uint)_size); }

        /// <summary>Allocates a struct body of <paramref name="bodySize"/> bytes, stores its offset in the slot
        /// at <paramref name="slot"/> (from <paramref name="bas"/>) and writes the header; returns the body's
        /// position, the base of its fields.</summary>
        public int StructBody(int bas, int slot, int bodySize, uint typeId)
        {
            int p = Alloc(bodySize);
            PutUInt32(slot, (uint)(p - bas));
            PutUInt32(p, (uint)bodySize);
            PutUInt32(p + 4, typeId);
            return p;
        }

        /// <summary>Allocates a length-prefixed block of <paramref name="data"/> and stores its offset in the slot
        /// (docs/format.md 3.4: always written, even empty).</summary>
        public void Bytes(int bas, int slot, byte[] data, int length)
        {
            int p = _size;
            AppendBlock(data, length);
            PutUInt32(slot, (uint)(p - bas));
        }

        /// <summary>Allocates a string's block (UTF-8, docs/limits.md 7) and stores its offset in the slot.</summary>
        public void String(int bas, int slot, string s)
        {
            int p = _size;
            AppendString(s);
            PutUInt32(slot, (uint)(p - bas));
        }

        /// <summary>Allocates a collection block of <paramref name="n"/> zeroed slots of <paramref name="item"/> bytes,
        /// stores its offset and the count, and returns the position of the first slot.</summary>
        public int Vector(int bas, int slot, int n, int item)
        {
            long size = 4 + (long)n * item;
            if (size > int.MaxValue)
                throw new EncodeException(ErrorKind.Invalid, "collection larger than 2 GiB", "");
            int p = Alloc((int)size);
            PutUInt32(p, (uint)n);
            PutUInt32(slot, (uint)(p - bas));
            return p + 4;
        }

        /// <summary>Marks the optional slot at <paramref name="slot"/> present, allocates its value slot of
        /// <paramref name="size"/> bytes and returns its position: the value's base.</summary>
        public int Optional(int bas, int slot, int size)
        {
            int p = Alloc(size);
            _buf[slot] = 1;
            PutUInt32(slot + 1, (uint)(p - bas));
            return p;
        }

        // ------------------------------------------------------------ final model

        /// <summary>Starts a final root (docs/format.md 4.1).</summary>
        public void BeginFinal()
        {
            Reset();
            Alloc(8);
        }

        /// <summary>Stores the final root's size and type id.</summary>
        public void EndFinal(uint typeId)
        {
            PutUInt32(0, (uint)_size);
            PutUInt32(4, typeId);
        }

        /// <summary>Appends a length and <paramref name="length"/> bytes of <paramref name="data"/>.</summary>
        public void AppendBlock(byte[] data, int length)
        {
            Reserve(4 + length);
            PutUInt32(_size, (uint)length);
            System.Buffer.BlockCopy(data, 0, _buf, _size + 4, length);
            _size += 4 + length;
        }

        /// <summary>Appends a string as its length and UTF-8 bytes (docs/limits.md 7).</summary>
        public void AppendString(string s)
        {
            // ASCII, the common case, in one pass straight into the buffer; else measured, then encoded.
            int n = s.Length;
            Reserve(4 + n);
            byte[] b = _buf;
            int p = _size + 4, i = 0;
            for (; i < n; i++)
            {
                char c = s[i];
                if (c >= 0x80)
                    break;
                b[p + i] = (byte)c;
            }
            if (i < n)
            {
                n = Utf8.Length(s);
                Reserve(4 + n);
                Utf8.Encode(s, _buf, p);
            }
            PutUInt32(_size, (uint)n);
            _size += 4 + n;
        }
    }
}
